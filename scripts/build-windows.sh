#!/usr/bin/env bash
# Builds the Windows brain on Linux (Debian): target/windows/pbrain-tianyuan.exe (stripped) and
# target/windows/pbrain-tianyuan.zip (the exe at the zip's root: what Gomocup takes).
#
# The target is x86_64-win7-windows-gnu: the MinGW target with the standard library's Windows 7
# code paths. The default x86_64-pc-windows-gnu standard library draws its random numbers from
# bcryptprimitives.dll (ProcessPrng), which Windows 10+ has but Wine 8 lacks; the win7 one uses
# advapi32 instead, so the same exe runs on every Windows from 7 on and under Wine. Its standard
# library is built from source (-Z build-std) with Debian's Rust and MinGW packages, installed
# here when missing. Where the compiler does not know the target, its spec is derived from
# x86_64-pc-windows-gnu with the vendor set to win7 (the standard library keys its Windows 7
# paths on that vendor).
#
# On Windows itself, `cargo build --release` makes target\release\pbrain-tianyuan.exe directly.
set -euo pipefail
cd "$(dirname "$0")/.."

packages=()
[ -x /usr/bin/cargo ] || packages+=(cargo-web)
[ -x /usr/bin/rustc ] || packages+=(rustc-web)
[ -d /usr/lib/rustlib/src/rust/library ] || packages+=(rust-web-src)
command -v x86_64-w64-mingw32-gcc >/dev/null || packages+=(gcc-mingw-w64-x86-64)
command -v zip >/dev/null || packages+=(zip)
command -v python3 >/dev/null || packages+=(python3)
if [ ${#packages[@]} -gt 0 ]; then
    sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    echo "installing ${packages[*]}" >&2
    export DEBIAN_FRONTEND=noninteractive
    $sudo apt-get install -y --no-install-recommends "${packages[@]}" >/dev/null ||
        { $sudo apt-get update >/dev/null && $sudo apt-get install -y --no-install-recommends "${packages[@]}" >/dev/null; }
fi

# Debian's toolchain, not rustup's: its standard library source matches its compiler.
export PATH=/usr/bin:$PATH RUSTC=/usr/bin/rustc RUSTDOC=/usr/bin/rustdoc RUSTC_BOOTSTRAP=1
export CARGO_TARGET_X86_64_WIN7_WINDOWS_GNU_LINKER=x86_64-w64-mingw32-gcc

out=target/windows
mkdir -p "$out"
target=x86_64-win7-windows-gnu
if ! rustc --print target-list | grep -qx "$target"; then
    spec="$PWD/$out/$target.json"
    rustc -Z unstable-options --print target-spec-json --target x86_64-pc-windows-gnu |
        python3 -c '
import json, sys
spec = json.load(sys.stdin)
spec["vendor"] = "win7"
spec["metadata"]["description"] = "64-bit MinGW (Windows 7+)"
# rsbegin.o / rsend.o come with a prebuilt standard library, not with -Z build-std; on x86-64
# they hold no code (their unwind-table registration is for 32-bit x86 only).
for key in ("pre-link-objects", "post-link-objects"):
    spec.pop(key, None)
for key in ("pre-link-objects-fallback", "post-link-objects-fallback"):
    spec[key] = {kind: [o for o in objs if not o.startswith("rs")] for kind, objs in spec.get(key, {}).items()}
json.dump(spec, sys.stdout, indent=2)
' >"$spec.new"
    # Rewritten only when it changes, so that cargo reuses an earlier build.
    cmp -s "$spec.new" "$spec" && rm "$spec.new" || mv "$spec.new" "$spec"
    target="$spec"
fi

started=$(date +%s)
/usr/bin/cargo build --release --locked -Z build-std=std,panic_unwind \
    --target "$target" --target-dir target/windows-build --bin pbrain-tianyuan
exe=target/windows-build/x86_64-win7-windows-gnu/release/pbrain-tianyuan.exe
x86_64-w64-mingw32-strip -o "$out/pbrain-tianyuan.exe" "$exe"
rm -f "$out/pbrain-tianyuan.zip"
(cd "$out" && zip -q -X pbrain-tianyuan.zip pbrain-tianyuan.exe)
echo "built $out/pbrain-tianyuan.exe ($(stat -c %s "$out/pbrain-tianyuan.exe") bytes) and $out/pbrain-tianyuan.zip in $(($(date +%s) - started)) s" >&2
