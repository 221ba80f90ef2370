"""Runs the vendor's command line (`vastai`, PyPI) once per request, without paying its start-up
(about 1.5 s of imports) each time: this process imports the client once, then forks a child per
command that runs the client's own entry point (`vastai.cli.main.main`, what the `vastai`
script calls) with that command's argv, stdout and stderr going to files.

Protocol: one JSON object per line on stdin, {"argv": [...], "input": text} (the words after
`vastai`, and what its prompts read; nothing when left out); one JSON object per line on stdout,
{"code": exit status, "stdout": text, "stderr": text, "ms": time}. The first line written is
{"ready": version} once the client is imported. Many commands print a Python literal (a dict's
repr) instead of JSON: {"literal": text} answers {"value": ...} or {"error": message}, read with
Python's own `ast.literal_eval`.
"""
import ast
import json
import os
import sys
import tempfile
import time

sys.argv[0] = "vastai"  # the program name its messages give
PROTOCOL = os.fdopen(os.dup(1), "w")
sys.stdout = open(os.devnull, "w")  # nothing of the import reaches the protocol

from vastai.cli import main as cli_main  # noqa: E402
from vastai.cli.util import VERSION  # noqa: E402
# What main() imports first, so that every child starts with the command modules loaded.
from vastai.cli.commands import (  # noqa: E402,F401
    instances, offers, machines, teams, keys, endpoints, billing, storage, auth, misc,
    deployments, metrics, benchmarks, price_increase, repl, update, uninstall,
)


def reply(obj):
    PROTOCOL.write(json.dumps(obj) + "\n")
    PROTOCOL.flush()


def run(argv, stdin_text):
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err, tempfile.TemporaryFile() as inp:
        inp.write(stdin_text.encode("utf-8"))
        inp.seek(0)
        started = time.monotonic()
        pid = os.fork()
        if pid == 0:
            code = 70
            try:
                os.dup2(inp.fileno(), 0)
                os.dup2(out.fileno(), 1)
                os.dup2(err.fileno(), 2)
                sys.stdin = open(0, "r", closefd=False)
                sys.stdout = open(1, "w", closefd=False)
                sys.stderr = open(2, "w", closefd=False)
                sys.argv = ["vastai", *argv]
                try:
                    # The `vastai` script: sys.exit(main()).
                    result = cli_main.main()
                    code = 0 if result is None else (result if isinstance(result, int) else 1)
                except SystemExit as e:
                    code = 0 if e.code is None else (e.code if isinstance(e.code, int) else 1)
                    if not isinstance(e.code, int) and e.code is not None:
                        print(e.code, file=sys.stderr)
                except BaseException as e:  # an uncaught error of the client: its traceback
                    import traceback

                    traceback.print_exc()
                    code = 1
            finally:
                try:
                    sys.stdout.flush()
                    sys.stderr.flush()
                finally:
                    os._exit(code)
        _, status = os.waitpid(pid, 0)
        ms = round((time.monotonic() - started) * 1000)
        out.seek(0)
        err.seek(0)
        return {
            "code": os.waitstatus_to_exitcode(status),
            "stdout": out.read().decode("utf-8", "replace"),
            "stderr": err.read().decode("utf-8", "replace"),
            "ms": ms,
        }


def serve():
    reply({"ready": VERSION})
    for line in sys.stdin:
        if not line.strip():
            continue
        request = json.loads(line)
        if "literal" in request:
            try:
                reply({"value": ast.literal_eval(request["literal"])})
            except (ValueError, SyntaxError, TypeError) as e:
                reply({"error": f"not a Python literal: {e}"})
            continue
        reply(run(request["argv"], request.get("input", "")))


if __name__ == "__main__":
    serve()
