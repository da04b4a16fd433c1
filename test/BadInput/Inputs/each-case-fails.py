#!/usr/bin/env python3
"""Runs TOOL on every `// -----` case of FILE on its own, without
-verify-diagnostics, and checks the project rule for bad input:

  * the tool exits with a status in 1..127 (an error, not a crash or a signal,
    never 0 after an error);
  * it prints `FILE:LINE:COL: error:` at the line each `expected-error @+N`
    (or `@-N`, or no offset) of the case points at;
  * no error line without a location (`error:` not preceded by LINE:COL).

Usage: each-case-fails.py TOOL FILE [TOOL ARGS...]
Each case keeps its line numbers (the other cases become blank lines), so the
locations are those of FILE. Prints one line per case and a total.
"""
import os
import re
import subprocess
import sys
import tempfile

SEPARATOR = re.compile(r"^// -----\s*$")
EXPECTED = re.compile(r"expected-error\s*(@([+-]\d+|above|below))?\s*\{\{")
LOCATED = re.compile(r"^(.*):(\d+):(\d+): error: ")


def cases(lines):
    start = 0
    for i, line in enumerate(lines):
        if SEPARATOR.match(line):
            yield start, i
            start = i + 1
    yield start, len(lines)


def expected_lines(lines, start, end):
    out = []
    for i in range(start, end):
        m = EXPECTED.search(lines[i])
        if not m:
            continue
        offset = m.group(2)
        line = i + 1
        if offset and offset[0] in "+-":
            line += int(offset)
        out.append(line)
    return out


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    tool, path, args = sys.argv[1], sys.argv[2], sys.argv[3:]
    with open(path) as f:
        lines = f.read().split("\n")
    failures = 0
    count = 0
    with tempfile.TemporaryDirectory() as tmp:
        case_path = os.path.join(tmp, os.path.basename(path))
        for start, end in cases(lines):
            want = expected_lines(lines, start, end)
            if not want:
                continue  # the RUN-line preamble or an empty case
            count += 1
            text = "\n" * start + "\n".join(lines[start:end]) + "\n"
            with open(case_path, "w") as f:
                f.write(text)
            run = subprocess.run([tool, case_path] + args, capture_output=True,
                                 text=True, errors="replace")
            located = set()
            unlocated = []
            for err in run.stderr.splitlines():
                m = LOCATED.match(err)
                if m and m.group(1) == case_path:
                    located.add(int(m.group(2)))
                elif "error:" in err:
                    unlocated.append(err)
            problems = []
            if run.returncode == 0:
                problems.append("exit 0 after the error")
            elif not 0 < run.returncode < 128:
                problems.append("exit status %d (a crash or a signal)" % run.returncode)
            for line in want:
                if line not in located:
                    problems.append("no '%s:%d:COL: error:'" % (os.path.basename(path), line))
            for err in unlocated:
                problems.append("error without a location: %s" % err.strip())
            where = "%s:%d" % (os.path.basename(path), want[0])
            if problems:
                failures += 1
                print("FAIL %s: %s" % (where, "; ".join(problems)))
                sys.stdout.write("  stderr: " + run.stderr.replace("\n", "\n  stderr: ") + "\n")
            else:
                print("ok   %s: exit %d" % (where, run.returncode))
    print("%d cases, %d refused properly" % (count, count - failures))
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
