// Validates Kubernetes objects against the API's OpenAPI schemas (kubernetes-models, ESM only, hence
// its own process: jest runs CommonJS). stdin: a JSON array of objects; stdout: one result each,
// { error } when the schema refuses it, { schema: false } for a kind it has no schema of (a CRD).
import { readFileSync } from 'node:fs';

const objects = JSON.parse(readFileSync(0, 'utf8'));
const results = [];
for (const object of objects) {
  // kubernetes-models/<group>/<version>/<Kind>; the core group is kubernetes-models/v1/<Kind>.
  let Model;
  try {
    Model = (await import(`kubernetes-models/${object.apiVersion}/${object.kind}`))[object.kind];
  } catch {
    results.push({ schema: false });
    continue;
  }
  try {
    new Model(object).validate();
    results.push({ schema: true });
  } catch (err) {
    results.push({ schema: true, error: err instanceof Error ? err.message : String(err) });
  }
}
process.stdout.write(JSON.stringify(results));
