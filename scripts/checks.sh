#!/bin/sh
# The checks `npm test` runs before jest: lint, typecheck and build, side by side rather than one
# after the other (they read the sources and only the build writes, into dist/). On two cores
# about 40 s instead of 85 s (issue 28 item 6). Fails when any of them fails.
npm run --silent lint & lint=$!
npm run --silent typecheck & types=$!
npm run --silent build & build=$!
status=0
wait "$lint" || { echo "npm test: lint failed" >&2; status=1; }
wait "$types" || { echo "npm test: typecheck failed" >&2; status=1; }
wait "$build" || { echo "npm test: build failed" >&2; status=1; }
exit "$status"
