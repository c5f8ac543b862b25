#!/usr/bin/env python3
"""Runs a brain with every `INFO time_left` line held back a few milliseconds.

    scripts/delay-info.py MS BRAIN [ARGS...]

For measuring against the Rapfi build in ../shared/peers/rapfi: it misreads an input line that
arrives while it is finishing a search (when the opponent answers at once) and replies
`ERROR Unknown command: TIME_LEFT`, which a manager scores as an illegal move. Holding the line
back 30 ms avoids the race and costs the brain nothing (its clock starts at the TURN line):

    pbrain-tianyuan match --engine target/release/pbrain-tianyuan \\
      --engine "scripts/delay-info.py 30 ../shared/peers/rapfi/pbrain-rapfi" --concurrency 1 …

The brain runs in its own folder (Rapfi reads its config.toml from the working directory).
"""
import os
import subprocess
import sys
import time


def main():
    delay = int(sys.argv[1]) / 1000
    brain = os.path.abspath(sys.argv[2])
    proc = subprocess.Popen([brain] + sys.argv[3:], stdin=subprocess.PIPE, text=True, bufsize=1,
                            cwd=os.path.dirname(brain))
    try:
        for line in sys.stdin:
            if line.upper().startswith("INFO TIME_LEFT"):
                time.sleep(delay)
            proc.stdin.write(line)
            proc.stdin.flush()
    except BrokenPipeError:
        pass
    try:
        proc.stdin.close()
    except BrokenPipeError:
        pass
    sys.exit(proc.wait())


if __name__ == "__main__":
    main()
