#!/bin/sh
# generate.sh compiles contracts/src with the pinned solc (npm ci first) and
# generates one abigen --v2 Go package per contract:
#
#   <build>/<Name>.abi, <build>/<Name>.bin
#   <bindings>/<lowercase name>/<lowercase name>.go   (package <lowercase name>, type <Name>)
#
# Usage (from anywhere): generate.sh [build dir] [bindings dir]
# Defaults: contracts/build and contracts/bindings. The stale test runs it
# into a temporary directory and compares with the committed files.
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$here/build}
bindings=${2:-$here/bindings}
rm -rf "$build" "$bindings"
mkdir -p "$build" "$bindings"
node "$here/scripts/compile.js" "$build"
for abi in "$build"/*.abi; do
	name=$(basename "$abi" .abi)
	pkg=$(echo "$name" | tr 'A-Z' 'a-z')
	mkdir -p "$bindings/$pkg"
	(cd "$here" && go tool abigen --v2 --abi "$abi" --bin "$build/$name.bin" --pkg "$pkg" --type "$name" --out "$bindings/$pkg/$pkg.go")
done
