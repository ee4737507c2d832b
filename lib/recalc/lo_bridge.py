#!/usr/bin/python3
"""UNO bridge between Node and one running headless soffice.

Run with Debian's /usr/bin/python3 (it has python3-uno). Usage: lo_bridge.py PIPE_NAME CONNECT_TIMEOUT_S

Protocol: JSON lines. Once connected it prints {"ready": true} (or {"ready": false, "error": ...} and exits 1).
Then, per request line {"id": N, "input": PATH, "output": PATH, "store"?: bool}, it loads the input hidden and
read-only, runs calculateAll(), writes the output, closes the document, and prints
{"id": N, "ok": bool, "error"?: str, "written"?: "results" | "store", "stored"?: why}.
The output is the input .xlsx with each formula cell's result written in (cached_values.py), or, when that cannot be
done exactly as LibreOffice would write it or the request says "store", the document stored by LibreOffice as xlsx.
One request at a time: soffice deadlocks when one instance serves two conversions at once.
"""
import json
import os
import sys
import xml.etree.ElementTree as ET
import zipfile

import uno
from cached_values import NotWritable, Workbook, formula_results
from uno_session import XLSX_FILTER, close, connect, describe, desktop_of, load_spreadsheet, load_xlsx_model, props


class Soffice:
    """The connection to one soffice: its component context, service manager and desktop, each read once."""

    def __init__(self, ctx):
        self.ctx = ctx
        self.service_manager = ctx.ServiceManager
        self.desktop = desktop_of(ctx)

    def alive(self):
        """False when the connection is gone (soffice died): a failed request then says so."""
        try:
            self.desktop.getFrames()
            return True
        except Exception:
            return False


def recalc(soffice, input_path, output_path, store):
    """How the output was written: ("results", None) or ("store", why the results were not written)."""
    workbook, why = open_workbook(input_path)
    try:
        # An .xlsx loads as a bare model (no frame or view); anything else as before, through the desktop.
        if workbook:
            doc = load_xlsx_model(soffice.service_manager, soffice.ctx, input_path)
        else:
            doc = load_spreadsheet(soffice.desktop, input_path)
        try:
            doc.calculateAll()
            if store:
                why = "asked to store"
            elif workbook:
                why = write_results(doc, workbook, output_path)
            if why is None:
                return ("results", None)
            doc.storeToURL(uno.systemPathToFileUrl(output_path), props(FilterName=XLSX_FILTER, Overwrite=True))
            return ("store", why)
        finally:
            close(doc)
    finally:
        if workbook:
            workbook.close()


def open_workbook(path):
    """(Workbook, None) for a plain .xlsx package, else (None, why not)."""
    try:
        return (Workbook(path), None)
    except (NotWritable, zipfile.BadZipFile, KeyError, ValueError, ET.ParseError, OSError) as err:
        return (None, "%s: %s" % (type(err).__name__, err))


def write_results(doc, workbook, output_path):
    """Writes the results into a copy of the input; None when done, else why not (nothing is left at output_path)."""
    try:
        workbook.write(output_path, formula_results(doc, workbook))
        return None
    except (NotWritable, zipfile.BadZipFile, KeyError, ValueError, ET.ParseError) as err:
        if os.path.exists(output_path):
            os.remove(output_path)
        return "%s: %s" % (type(err).__name__, err)


def reply(obj):
    sys.stdout.write(json.dumps(obj) + "\n")
    sys.stdout.flush()


def serve(soffice):
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
            written, why = recalc(soffice, req["input"], req["output"], bool(req.get("store")))
            reply({"id": req_id, "ok": True, "written": written, **({"stored": why} if why else {})})
        except Exception as err:
            # A DisposedException means soffice died; Node sees its exit and restarts it. Some calls on a dead
            # connection raise other exceptions (reading an attribute: UnknownPropertyException): asked once more.
            text = str(err) if isinstance(err, RuntimeError) else describe(err)
            if "DisposedException" not in text and not soffice.alive():
                text = "DisposedException: the connection to soffice is gone (%s)" % text
            reply({"id": req_id, "ok": False, "error": text})


def main():
    pipe_name = sys.argv[1]
    timeout_s = float(sys.argv[2]) if len(sys.argv) > 2 else 30.0
    try:
        soffice = Soffice(connect(pipe_name, timeout_s))
    except Exception as err:
        reply({"ready": False, "error": str(err)})
        sys.exit(1)
    reply({"ready": True})
    serve(soffice)
    # stdin closed: Node stopped us or died. Take soffice down too, so no instance outlives its owner.
    try:
        soffice.desktop.terminate()
    except Exception:
        pass


if __name__ == "__main__":
    main()
