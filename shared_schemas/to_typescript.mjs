// JSON Schema (stdin) -> TypeScript (stdout) with json-schema-to-typescript; run by
// shared_schemas/generate.py (`make schemas`). Every $defs entry becomes a named type.
import { compile } from "json-schema-to-typescript";

const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);
const schema = JSON.parse(Buffer.concat(chunks).toString("utf8"));
const ts = await compile(schema, schema.title, {
  bannerComment: process.argv[2] ?? "",
  additionalProperties: false,
  unreachableDefinitions: true,
  strictIndexSignatures: true,
  declareExternallyReferenced: true,
  format: true,
  style: { printWidth: 120, trailingComma: "all" },
});
process.stdout.write(ts);
