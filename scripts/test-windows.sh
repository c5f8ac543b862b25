#!/usr/bin/env bash
# Tests the Windows brain (target/windows/pbrain-tianyuan.exe, from scripts/build-windows.sh) under
# Wine, after README's test command in .ci/run:
#   1. a protocol session through Wine: every rule, a few moves each, END (scripts/wine_session.py);
#   2. a match game between the Windows brain and the Linux brain (the Linux match runner);
#   3. the Windows match runner kills a hung brain with everything it started: a "brain" that is
#      `cmd /c ping …` never answers, is killed on time-out, and no ping may be left running.
# Installs Wine when it is missing. Uses its own Wine prefix under target/.
set -euo pipefail
cd "$(dirname "$0")/.."

exe=target/windows/pbrain-tianyuan.exe
[ -f "$exe" ] || { echo "error: $exe is missing; run scripts/build-windows.sh first" >&2; exit 1; }
linux=target/release/pbrain-tianyuan
[ -x "$linux" ] || linux=target/debug/pbrain-tianyuan
[ -x "$linux" ] || cargo build --release --bin pbrain-tianyuan
[ -x "$linux" ] || linux=target/release/pbrain-tianyuan

if [ ! -x /usr/lib/wine/wine64 ]; then
    sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    export DEBIAN_FRONTEND=noninteractive
    $sudo apt-get install -y --no-install-recommends wine64 wine >/dev/null ||
        { $sudo apt-get update >/dev/null && $sudo apt-get install -y --no-install-recommends wine64 wine >/dev/null; }
fi
wine=/usr/lib/wine/wine64
export WINEPREFIX="$PWD/target/wineprefix" WINEDEBUG=-all
if [ ! -f "$WINEPREFIX/system.reg" ]; then
    started=$(date +%s%N)
    "$wine" wineboot --init >/dev/null 2>&1
    echo "wine prefix made in $((($(date +%s%N) - started) / 1000000)) ms"
fi

version=$(sed -n 's/^version = "\(.*\)"/\1/p' Cargo.toml | head -1)

echo "== 1. protocol session through Wine"
python3 scripts/wine_session.py "$version" "$wine" "$exe"

echo "== 2. a match: the Windows brain against the Linux brain"
report=$("$linux" match --engine "$wine $exe" --engine "$linux" --name windows --name linux --rule 0 \
    --size 15 --tc 300/0 --games 2 --random-openings 1 --seed 7 --tolerance 2000 2>/dev/null)
echo "$report" | grep -E "^Score|^Results by reason"
reasons=$(echo "$report" | sed -n 's/^Results by reason: //p')
if echo "$reasons" | tr ',' '\n' | grep -vqE "(five|full board|draw)"; then
    echo "error: a game ended other than on the board: $reasons" >&2
    exit 1
fi

echo "== 3. the Windows match runner kills a hung brain's whole process tree"
pkill -f "ping -n 97 127.0.0.1" || true
"$wine" "$exe" match --engine "cmd /c ping -n 97 127.0.0.1 >NUL" --engine "$exe" --rule 0 --games 2 \
    --tc 200/0 --tolerance 300 --random-openings 1 --seed 1 >/dev/null 2>&1
sleep 1
if pgrep -f "ping -n 97 127.0.0.1" >/dev/null; then
    pkill -f "ping -n 97 127.0.0.1" || true
    echo "error: the hung brain's child outlived the match" >&2
    exit 1
fi
echo "nothing left running"
echo "windows build: all checks passed"
