#!/usr/bin/env bash
# Builds the Pulumi CLI from Go modules at the version of @pulumi/pulumi in package-lock.json and
# installs it, with the dynamic-provider plugin, into .pulumi/bin (ignored by git).
#
#   npm run pulumi-cli          # then: export PATH="$PWD/.pulumi/bin:$PATH"
#
# Idempotent: skips the build when .pulumi/bin/pulumi already reports that version. The Go build
# and module caches are Go's defaults (GOCACHE, GOMODCACHE), so a second build on one machine is
# quick. The CLI's main package lives in github.com/pulumi/pulumi/pkg/v3, whose go.mod carries
# replace directives, so it is built from a throwaway wrapper module rather than `go install`.
# The Node.js language host (pulumi-language-nodejs) is its own module; it is built when the Go
# module proxy serves it, and otherwise reported in one line without failing.
set -euo pipefail

say() { printf 'pulumi-cli: %s\n' "$*"; }
die() { printf 'pulumi-cli: %s\n' "$*" >&2; exit 1; }

root="$(cd "$(dirname "$0")/.." && pwd)"
bin="$root/.pulumi/bin"

command -v go >/dev/null 2>&1 || die "Go is not installed (the Pulumi CLI is built from Go modules; install Go 1.26+ from https://go.dev/dl/ and put it on PATH)"
command -v node >/dev/null 2>&1 || die "node is not on PATH"

version="$(node -e 'const l=require(process.argv[1]);const p=l.packages&&l.packages["node_modules/@pulumi/pulumi"];if(!p)process.exit(1);console.log(p.version)' "$root/package-lock.json")" \
  || die "package-lock.json has no node_modules/@pulumi/pulumi entry"
plugin_src="$root/node_modules/@pulumi/pulumi/pulumi-resource-pulumi-nodejs"
[ -f "$plugin_src" ] || die "node_modules/@pulumi/pulumi is missing (run npm ci first)"

# Commit of the tag pkg/v<version>, as the proxy's pseudo-version of the language host module
# (the module has no tags of its own). Only versions listed here are tried.
language_host_version() {
  case "$1" in
    3.248.0) echo "v3.0.0-20260624180030-dc7edd58bc13" ;;
    *) echo "" ;;
  esac
}

install_plugin() {
  mkdir -p "$bin"
  install -m 0755 "$plugin_src" "$bin/pulumi-resource-pulumi-nodejs"
}

if [ -x "$bin/pulumi" ] && [ "$("$bin/pulumi" version 2>/dev/null || true)" = "v$version" ]; then
  install_plugin
  say "pulumi v$version already in .pulumi/bin (delete .pulumi/bin to rebuild)"
  exit 0
fi

started=$SECONDS
say "building pulumi v$version from Go modules ($(go version | awk '{print $3}'), GOCACHE=$(go env GOCACHE))"
export GOFLAGS="${GOFLAGS:+$GOFLAGS }-buildvcs=false"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cd "$work"
go mod init pulumi-cli-wrapper >/dev/null 2>&1
cat > tools.go <<'GO'
//go:build tools

package tools

import _ "github.com/pulumi/pulumi/pkg/v3/cmd/pulumi"
GO

pkg="github.com/pulumi/pulumi/pkg/v3"
sdk="github.com/pulumi/pulumi/sdk/v3"
say "resolving $pkg@v$version and $sdk@v$version"
gomod="$(go mod download -json "$pkg@v$version" | node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{const j=JSON.parse(s);if(j.Error){console.error(j.Error);process.exit(1)}console.log(j.GoMod)})')" \
  || die "the Go module proxy does not serve $pkg@v$version"
# The non-local replace directives of the CLI's own go.mod (never its ../sdk one).
while IFS= read -r rep; do
  [ -n "$rep" ] && go mod edit -replace="$rep"
done < <(go mod edit -json "$gomod" | node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{for(const r of JSON.parse(s).Replace??[]){if(/^[.\/]/.test(r.New.Path)||!r.New.Version)continue;const o=r.Old.Version?`${r.Old.Path}@${r.Old.Version}`:r.Old.Path;console.log(`${o}=${r.New.Path}@${r.New.Version}`)}})')
go mod edit -require="$pkg@v$version" -require="$sdk@v$version"
go mod tidy >/dev/null 2>&1 || die "go mod tidy failed for $pkg@v$version (run it in a wrapper module to see why)"
for m in "$pkg" "$sdk"; do
  got="$(go list -m -f '{{.Version}}' "$m")"
  [ "$got" = "v$version" ] || die "$m resolved to $got, not v$version"
done

ldflags="-X github.com/pulumi/pulumi/sdk/v3/go/common/version.Version=v$version"
say "compiling cmd/pulumi (a cold build takes several minutes)"
mkdir -p out
go build -ldflags "$ldflags" -o out/pulumi "$pkg/cmd/pulumi" || die "go build of $pkg/cmd/pulumi failed"

lang="github.com/pulumi/pulumi/sdk/nodejs/cmd/pulumi-language-nodejs/v3"
lang_version="$(language_host_version "$version")"
if [ -n "$lang_version" ] && go get "$lang@$lang_version" >/dev/null 2>"$work/lang.err" \
  && go build -ldflags "$ldflags" -o out/pulumi-language-nodejs "$lang" 2>>"$work/lang.err"; then
  say "built pulumi-language-nodejs $lang_version"
else
  reason="$(grep -o 'not available\|not found\|404 Not Found\|403 Forbidden' "$work/lang.err" 2>/dev/null | head -1 || true)"
  say "pulumi-language-nodejs not built: the Go module proxy does not serve $lang${lang_version:+@$lang_version}${reason:+ ($reason)}; inline Automation API programs work, \`pulumi up\` in a project directory does not"
fi

mkdir -p "$bin"
for f in out/*; do
  install -m 0755 "$f" "$bin/$(basename "$f").new" && mv -f "$bin/$(basename "$f").new" "$bin/$(basename "$f")"
done
install_plugin
say "installed $("$bin/pulumi" version) into .pulumi/bin in $((SECONDS - started)) s"
