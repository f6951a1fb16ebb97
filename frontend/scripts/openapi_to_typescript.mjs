// OpenAPI document (stdin) -> TypeScript (stdout) with openapi-typescript: the `paths` and
// `components` types the frontend's client (openapi-fetch) is typed by. Run by
// scripts/openapi_client.py (`make schemas`).
import { Buffer } from "node:buffer";
import process from "node:process";
import openapiTS, { astToString } from "openapi-typescript";

const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);
const document = JSON.parse(Buffer.concat(chunks).toString("utf8"));
// a property with a default is optional (a request may leave it out; the server fills it in)
const ast = await openapiTS(document, { alphabetize: true, defaultNonNullable: false });
process.stdout.write(`${process.argv[2] ?? ""}\n${astToString(ast)}`);
