#!/usr/bin/env python3
"""A protocol session with a brain, as a manager drives it: ABOUT, then for every rule START,
INFO, BEGIN and a few TURNs, then END. Fails (exit 1) on a reply that is not a legal move in time,
on any text on stderr, on an ABOUT without the version, or if the brain outlives END.

    scripts/wine_session.py VERSION BRAIN [ARGS...]

Prints the time from a fresh process's START to its OK (for the Windows brain under Wine:
Wine's own start-up included) and from each TURN to the move.
"""
import subprocess
import sys
import threading
import time

TURN_MS = 300
SLACK_MS = 1000  # what the Gomocup manager tolerates past the turn limit
RULES = [0, 1, 4, 8, 9]
SIZE = 15


def fail(msg):
    print(f"wine session: FAIL: {msg}", file=sys.stderr)
    sys.exit(1)


def main():
    version, brain = sys.argv[1], sys.argv[2:]
    started = time.monotonic()
    proc = subprocess.Popen(brain, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, bufsize=1)
    stderr_lines = []
    threading.Thread(target=lambda: stderr_lines.extend(proc.stderr), daemon=True).start()
    lines = []
    cond = threading.Condition()

    def read_stdout():
        for line in proc.stdout:
            with cond:
                lines.append(line.rstrip("\r\n"))
                cond.notify()
        with cond:
            lines.append(None)
            cond.notify()

    threading.Thread(target=read_stdout, daemon=True).start()

    def send(text):
        proc.stdin.write(text + "\n")
        proc.stdin.flush()

    def reply(limit_ms):
        """The next line that is not MESSAGE/DEBUG, within limit_ms."""
        until = time.monotonic() + limit_ms / 1000
        with cond:
            while True:
                while not lines:
                    left = until - time.monotonic()
                    if left <= 0 or not cond.wait(left):
                        if not lines:
                            fail(f"no reply within {limit_ms} ms")
                line = lines.pop(0)
                if line is None:
                    fail("the brain closed its output")
                if line.split(" ", 1)[0] in ("MESSAGE", "DEBUG"):
                    continue
                return line

    send("START 15")
    ok = reply(30000)
    start_ok_ms = (time.monotonic() - started) * 1000
    if ok != "OK":
        fail(f"START 15 answered {ok!r}")
    send("ABOUT")
    about = reply(2000)
    if f'version="{version}"' not in about:
        fail(f"ABOUT without version {version}: {about!r}")
    turn_ms = []
    for rule in RULES:
        send(f"START {SIZE}")
        if reply(2000) != "OK":
            fail(f"rule {rule}: START not OK")
        send(f"INFO timeout_turn {TURN_MS}")
        send("INFO timeout_match 0")
        send(f"INFO rule {rule}")
        board = set()
        t = time.monotonic()
        send("BEGIN")
        for turn in range(4):
            move = reply(TURN_MS + SLACK_MS)
            turn_ms.append((time.monotonic() - t) * 1000)
            try:
                x, y = (int(v) for v in move.split(","))
            except ValueError:
                fail(f"rule {rule}: not a move: {move!r}")
            if not (0 <= x < SIZE and 0 <= y < SIZE) or (x, y) in board:
                fail(f"rule {rule}: illegal move {move}")
            board.add((x, y))
            if turn == 3:
                break
            # The opponent plays the first empty cell of a ring around the centre.
            answer = next((SIZE // 2 + dx, SIZE // 2 + dy)
                          for r in range(1, SIZE) for dx in range(-r, r + 1)
                          for dy in range(-r, r + 1)
                          if max(abs(dx), abs(dy)) == r and
                          (SIZE // 2 + dx, SIZE // 2 + dy) not in board)
            board.add(answer)
            t = time.monotonic()
            send(f"TURN {answer[0]},{answer[1]}")
        print(f"rule {rule}: 4 legal moves")
    send("END")
    try:
        proc.wait(timeout=5)
    except subprocess.TimeoutExpired:
        proc.kill()
        fail("still running 5 s after END")
    time.sleep(0.1)
    if stderr_lines:
        fail(f"text on stderr: {stderr_lines[:3]!r}")
    print(f"START→OK of a fresh process: {start_ok_ms:.0f} ms; "
          f"TURN→move: median {sorted(turn_ms)[len(turn_ms) // 2]:.0f} ms, "
          f"max {max(turn_ms):.0f} ms (turn limit {TURN_MS} ms); exit after END: ok")


if __name__ == "__main__":
    main()
