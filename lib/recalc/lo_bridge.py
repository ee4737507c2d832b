#!/usr/bin/python3
"""UNO bridge between Node and one running headless soffice.

Run with Debian's /usr/bin/python3 (it has python3-uno). Usage: lo_bridge.py PIPE_NAME CONNECT_TIMEOUT_S

Protocol: JSON lines. Once connected it prints {"ready": true} (or {"ready": false, "error": ...} and exits 1).
Then, per request line {"id": N, "input": PATH, "output": PATH}, it loads the input hidden and read-only,
runs calculateAll(), stores it as xlsx to the output path, closes it, and prints {"id": N, "ok": bool, "error"?: str}.
One request at a time: soffice deadlocks when one instance serves two conversions at once.
"""
import json
import sys

import uno
from uno_session import close, connect, describe, desktop_of, load_spreadsheet, props

XLSX_FILTER = "Calc MS Excel 2007 XML"


def recalc(desktop, input_path, output_path):
    doc = load_spreadsheet(desktop, input_path)
    try:
        doc.calculateAll()
        doc.storeToURL(uno.systemPathToFileUrl(output_path), props(FilterName=XLSX_FILTER, Overwrite=True))
    finally:
        close(doc)


def reply(obj):
    sys.stdout.write(json.dumps(obj) + "\n")
    sys.stdout.flush()


def serve(desktop):
    for line in sys.stdin:
        line = line.strip()
        if not line:
            continue
        try:
            req = json.loads(line)
            req_id = req["id"]
        except Exception as err:
            reply({"id": None, "ok": False, "error": "bad request: %s" % err})
            continue
        try:
            recalc(desktop, req["input"], req["output"])
            reply({"id": req_id, "ok": True})
        except Exception as err:
            # A DisposedException here means soffice died; Node sees its exit and restarts it.
            text = str(err) if isinstance(err, RuntimeError) else describe(err)
            reply({"id": req_id, "ok": False, "error": text})


def main():
    pipe_name = sys.argv[1]
    timeout_s = float(sys.argv[2]) if len(sys.argv) > 2 else 30.0
    try:
        desktop = desktop_of(connect(pipe_name, timeout_s))
    except Exception as err:
        reply({"ready": False, "error": str(err)})
        sys.exit(1)
    reply({"ready": True})
    serve(desktop)
    # stdin closed: Node stopped us or died. Take soffice down too, so no instance outlives its owner.
    try:
        desktop.terminate()
    except Exception:
        pass


if __name__ == "__main__":
    main()
