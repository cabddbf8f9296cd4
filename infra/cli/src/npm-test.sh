#!/bin/sh
# npm test: the type check beside jest instead of before it. Jest's set-up spends its first seconds
# starting Kafka and Mongo, while the type check needs ~15 s of the machine's two cores; side by side
# they overlap. Fails when either fails (a type error is printed as soon as it is found); arguments go
# to jest, e.g. `npm test -- services/user`.
npm run -s typecheck &
typecheck=$!
NODE_OPTIONS=--disable-warning=TimeoutNegativeWarning jest "$@"
tests=$?
if ! wait "$typecheck"; then
  echo "npm test: the type check failed (its errors are above)" >&2
  exit 1
fi
exit "$tests"
