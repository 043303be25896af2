package hone_test

import "testing"

// Settings, manifests and CI files say a project's words without being its
// code: a task about behaviour ranks the code that does it first, and a task
// that names them ranks them first. Two projects written apart.
func TestConfigBelowCode(t *testing.T) {
	ci := map[string]string{
		".github/workflows/ci.yml": `name: ci
on: [push, pull_request]
jobs:
  build:
    strategy:
      matrix:
        node: [18, 20, 22]
    steps:
      - uses: actions/setup-node@v4
        with:
          node-version: ${{ matrix.node }}
          cache: npm
      - name: build cache
        run: npm run build -- --cache .cache/build
      - name: invalidate cache on node version change
        run: rm -rf .cache/build
`,
		"src/cache/buildCache.ts": `import { createHash } from 'crypto'

export interface CacheEntry { key: string; output: string }

export function cacheKey(sources: string[]): string {
  const h = createHash('sha256')
  for (const s of sources) h.update(s)
  return h.digest('hex')
}

export function isFresh(entry: CacheEntry, sources: string[]): boolean {
  return entry.key === cacheKey(sources)
}
`,
		"src/cli.ts":   "import { isFresh } from './cache/buildCache'\nexport function main() { return isFresh }\n",
		"src/index.ts": "export * from './cli'\n",
	}
	wantFirst(t, ci, "Build cache is not invalidated when the node version changes", "src/cache/buildCache.ts")
	wantFirst(t, ci, "The CI workflow does not invalidate the build cache on a node version change", ".github/workflows/ci.yml")

	settings := map[string]string{
		"config/settings.yaml": `# Retry: on a failed call the client keeps retrying with a backoff,
# sleeping longer after each attempt, until the timeout passes.
http:
  retry:
    attempts: 5
    backoff: exponential
    backoff_base_seconds: 0.5
    timeout_seconds: 30
  retry_on: [502, 503, 504]
`,
		"app/http/retry.py": `import time


def backoff_delays(attempts, base):
    return [base * 2 ** i for i in range(attempts)]


def call_with_retry(fn, attempts, base, deadline):
    for delay in backoff_delays(attempts, base):
        try:
            return fn()
        except IOError:
            time.sleep(delay)
    raise TimeoutError("gave up")
`,
		"app/http/client.py": "from .retry import call_with_retry\n\n\ndef get(url):\n    return call_with_retry(lambda: url, 3, 0.1, 10)\n",
		"app/__init__.py":    "",
	}
	wantFirst(t, settings, "Retry backoff keeps sleeping past the timeout", "app/http/retry.py")
	wantFirst(t, settings, "Read the retry timeout from the YAML settings", "config/settings.yaml")
}
