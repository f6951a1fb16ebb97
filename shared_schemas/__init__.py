"""The wire contract shared by the backend and the frontend (see models.py)."""
