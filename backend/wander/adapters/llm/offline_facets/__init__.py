"""The offline dweller's facets: the facts of a pair (facts.py), then one writer per facet
(writers.py) that chooses its constructions by which of those facts hold."""
