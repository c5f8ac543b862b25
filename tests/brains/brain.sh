#!/bin/sh
# A tiny scripted Gomocup brain for the match runner's tests. It plays the first empty cell of
# its preferred list, then the first empty cell in row-major order, and misbehaves on request.
#
# usage: brain.sh [--moves "x,y x,y ..."] [--at N ACTION [ARG]] [--every-sleep SECONDS]
#                 [--log FILE] [--once FILE] [--name NAME]
#   --at N ACTION   at its N-th move of a game (1-based) do ACTION instead of moving:
#                   hang | crash (exit 3) | kill (SIGKILL itself) | occupied | offboard |
#                   garbage | sleep SECONDS (then move) | no-ok (at START of game N: never say OK)
#   --every-sleep S sleep S seconds before every move
#   --log FILE      append every command received to FILE
#   --once FILE     misbehave only if FILE does not exist yet (it is created when misbehaving),
#                   so a restarted process plays normally
#   --skip-every K  behave in every K-th game of the process (K, 2K, ...), misbehave in the others
#   --name NAME     the ABOUT name
moves=""; at=0; action=""; arg=""; every=""; log=""; once=""; name="scripted"; skip=0
while [ $# -gt 0 ]; do
  case "$1" in
    --moves) moves="$2"; shift 2 ;;
    --at) at="$2"; action="$3"; shift 3
          case "$action" in sleep) arg="$1"; shift ;; esac ;;
    --every-sleep) every="$2"; shift 2 ;;
    --log) log="$2"; shift 2 ;;
    --once) once="$2"; shift 2 ;;
    --name) name="$2"; shift 2 ;;
    --skip-every) skip="$2"; shift 2 ;;
    *) echo "bad option $1" >&2; exit 2 ;;
  esac
done
size=15; occ=" "; n=0; game=0; last=""

misbehave_now() { # true when the misbehaviour applies now (and consumes --once)
  [ "$skip" -gt 0 ] && [ $((game % skip)) -eq 0 ] && return 1
  [ -n "$once" ] || return 0
  [ -e "$once" ] && return 1
  : > "$once"; return 0
}

is_free() { case "$occ" in *" $1 "*) return 1 ;; esac; return 0; }

pick() {
  for m in $moves; do
    if is_free "$m"; then echo "$m"; return; fi
  done
  y=0
  while [ $y -lt $size ]; do
    x=0
    while [ $x -lt $size ]; do
      if is_free "$x,$y"; then echo "$x,$y"; return; fi
      x=$((x + 1))
    done
    y=$((y + 1))
  done
}

play() {
  n=$((n + 1))
  [ -n "$every" ] && sleep "$every"
  if [ "$n" = "$at" ] && misbehave_now; then
    case "$action" in
      hang) sleep 1000; exit 0 ;;
      crash) exit 3 ;;
      kill) kill -9 $$ ;;
      occupied) echo "$last"; return ;;
      offboard) echo "$size,0"; return ;;
      garbage) echo "I resign"; return ;;
      sleep) sleep "$arg" ;;
    esac
  fi
  m=$(pick)
  occ="$occ$m "
  echo "MESSAGE playing $m"
  echo "$m"
}

while IFS= read -r line; do
  line=$(printf '%s' "$line" | tr -d '\r')
  [ -n "$log" ] && printf '%s\n' "$line" >> "$log"
  case "$line" in
    ABOUT) echo "name=\"$name\", version=\"1.0\", author=\"tests\"" ;;
    START*)
      size=${line#START }; occ=" "; n=0; last=""; game=$((game + 1))
      if [ "$action" = "no-ok" ] && [ "$game" = "$at" ] && misbehave_now; then sleep 1000; exit 0; fi
      echo OK ;;
    INFO*) ;;
    BEGIN) play ;;
    TURN*) last=${line#TURN }; occ="$occ$last "; play ;;
    BOARD)
      while IFS= read -r l; do
        l=$(printf '%s' "$l" | tr -d '\r')
        [ -n "$log" ] && printf '%s\n' "$l" >> "$log"
        case "$l" in DONE) break ;; esac
        c=${l%,*}; occ="$occ$c "; last="$c"
      done
      play ;;
    END) exit 0 ;;
  esac
done
