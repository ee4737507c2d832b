"""The project's Python port of SpreadsheetBench 2's evaluation/evaluation.py (github RUCKBReasoning/SpreadsheetBench-2
at 599b24a), rule for rule, on real openpyxl. Checked line by line against the original; used as the parity oracle.
Usage: v2_eval_port.py CATEGORY_DIR OUTPUTS_DIR  -> the official result JSON on stdout.
       v2_eval_port.py --many < [[CATEGORY_DIR, OUTPUTS_DIR], ...]  -> a JSON list of those results, in that order
       (one interpreter and one openpyxl import for all of them)."""
import datetime
import json
import os
import sys

import openpyxl

NM_ERRORS = {'#DIV/0!', '#N/A'}
NOT_MEANINGFUL = NM_ERRORS | {'N/A', 'NA', 'N.A.', 'N/M', 'NM', 'N.M.', 'NOT MEANINGFUL', 'NOT APPLICABLE',
                              'NOT AVAILABLE', '\u2014', '\u2013', '-', '--', '---'}
EXCEL_ERRORS = {'#REF!', '#VALUE!', '#DIV/0!', '#NAME?', '#NULL!', '#N/A', '#NUM!'}
OFFICE_THEME = ["FFFFFF", "000000", "E7E6E6", "44546A", "4472C4", "ED7D31", "A5A5A5", "FFC000", "5B9BD5", "70AD47"]


def is_num(v):
    return isinstance(v, (int, float))


def normalise(v):
    if is_num(v):
        return round(float(v), 2)
    if isinstance(v, datetime.time):
        return str(v)[:-3]
    if isinstance(v, datetime.datetime):
        d = v - datetime.datetime(1899, 12, 30)
        return round(d.days + d.seconds / 86400.0, 0)
    if isinstance(v, str):
        try:
            return round(float(v), 2)
        except ValueError:
            return v
    return v


def close(a, b, tol):
    if a == b:
        return True
    if a == 0 or b == 0:
        return abs(a - b) <= tol
    return abs(a - b) / max(abs(a), abs(b)) <= tol


def not_meaningful(v):
    return isinstance(v, str) and v.strip().upper() in NOT_MEANINGFUL


def same_value(a, b, tol=0.01):
    if hasattr(a, 'text') and hasattr(b, 'text'):
        return a.text == b.text
    if not_meaningful(a) and not_meaningful(b):
        return True
    if is_num(a) and is_num(b):
        return close(a, b, tol)
    a, b = normalise(a), normalise(b)
    if a in ("", None) and b in ("", None) and not (hasattr(a, 'text') or hasattr(b, 'text')):
        return True
    if (a is None and is_num(b) and b == 0) or (b is None and is_num(a) and a == 0):
        return True
    if type(a) != type(b):
        return False
    if a == b:
        return True
    if isinstance(a, str) and a.startswith('=') and b.startswith('='):
        return a.replace('$', '').upper() == b.replace('$', '').upper()
    if is_num(a):
        return close(a, b, tol)
    return False


def rgb_of(color):
    if not color:
        return "00000000"
    if color.type == "rgb" and isinstance(color.rgb, str):
        return color.rgb
    if color.type == "theme" and 0 <= color.theme < len(OFFICE_THEME):
        base = OFFICE_THEME[color.theme]
        tint = float(color.tint) if color.tint else 0.0
        if tint:
            ch = [int(base[i:i + 2], 16) for i in (0, 2, 4)]
            ch = [int(c + (255 - c) * tint) if tint > 0 else int(c * (1 + tint)) for c in ch]
            base = "".join(f"{min(255, max(0, c)):02X}" for c in ch)
        return "FF" + base
    return "00000000"


def same_formula(c1, c2):
    f1, f2 = c1.value, c2.value
    if hasattr(f1, 'text') and hasattr(f2, 'text'):
        return f1.text == f2.text
    if isinstance(f1, str) and isinstance(f2, str) and f1.startswith('=') and f2.startswith('='):
        def norm(f):
            f = f.replace('$', '').upper()
            return '=' + f[2:] if f.startswith('=+') else f
        return norm(f1) == norm(f2)
    if f1 in (None, "") and f2 in (None, ""):
        return True
    return same_value(f1, f2)


def split_position(pos):
    out, cur, quoted = [], "", False
    for ch in pos:
        if ch == "'":
            quoted = not quoted
        if ch == ',' and not quoted:
            if cur.strip():
                out.append(cur.strip())
            cur = ""
        else:
            cur += ch
    if cur.strip():
        out.append(cur.strip())
    return out


def col_name(n):
    s = ''
    while n > 0:
        n, r = divmod(n - 1, 26)
        s = chr(65 + r) + s
    return s


def col_num(s):
    n = 0
    for c in s:
        n = n * 26 + (ord(c) - ord('A') + 1)
    return n


def split_cell(ref):
    col = ''.join(c for c in ref if not c.isdigit())
    row = ''.join(c for c in ref if c.isdigit())
    return col_num(col), int(row)


def cell_names(rng):
    if ':' not in rng:
        return [rng]
    a, b = rng.split(':')
    (c1, r1), (c2, r2) = split_cell(a), split_cell(b)
    return [f"{col_name(c)}{r}" for c in range(c1, c2 + 1) for r in range(r1, r2 + 1)]


def find_sheet(wb, name):
    if name in wb.sheetnames:
        return wb[name]
    want = name.strip().lower()
    for sn in wb.sheetnames:
        if sn.strip().lower() == want:
            return wb[sn]
    return None


def has_error(cell):
    return isinstance(cell.value, str) and cell.value in EXCEL_ERRORS


def same_cell(a, b, af, bf, name, colour, formula):
    ca, cb = a[name], b[name]
    if not formula and af and bf and (has_error(ca) or has_error(cb)):
        return same_formula(af[name], bf[name])
    if formula:
        return same_formula(ca, cb)
    if colour:
        return same_value(ca.value, cb.value) and rgb_of(ca.font.color)[-6:] == rgb_of(cb.font.color)[-6:]
    return same_value(ca.value, cb.value)


def compare(inp, gt, out, pos, colour, formula):
    zero = {'correct': 0, 'total': 0}
    if not os.path.exists(out):
        return False, "output file not exist", zero, dict(zero)
    if not os.path.exists(inp):
        return False, "input file not exist", zero, dict(zero)
    try:
        books = [openpyxl.load_workbook(f, data_only=not formula) for f in (inp, gt, out)]
        fbooks = [openpyxl.load_workbook(f, data_only=False) for f in (inp, gt, out)] if not formula else [None] * 3
    except Exception as e:
        return False, str(e), zero, dict(zero)
    reg, mod, msgs = {'correct': 0, 'total': 0}, {'correct': 0, 'total': 0}, []
    for piece in split_position(pos):
        sheet, rng = piece.split('!') if '!' in piece else (books[1].sheetnames[0], piece)
        sheet, rng = sheet.strip("'").strip(), rng.strip("'").strip()
        ws = [find_sheet(b, sheet) for b in books]
        wsf = [find_sheet(b, sheet) if b else None for b in fbooks]
        regs, mods = [], []
        if ws[0] is not None and ws[1] is not None:
            for n in cell_names(rng):
                (regs if same_cell(ws[0], ws[1], wsf[0], wsf[1], n, colour, formula) else mods).append(n)
        reg['total'] += len(regs)
        mod['total'] += len(mods)
        if ws[2] is None:
            msgs.append(f"{sheet} worksheet not found")
            continue
        for cells, label, st in ((regs, "Regression", reg), (mods, "Modification", mod)):
            for n in cells:
                if same_cell(ws[1], ws[2], wsf[1], wsf[2], n, colour, formula):
                    st['correct'] += 1
                else:
                    va, vo = ws[1][n].value, ws[2][n].value
                    va, vo = getattr(va, 'text', va), getattr(vo, 'text', vo)
                    msgs.append(f"{label} error at {sheet}!{n}: answer={va}, output={vo}")
    ok = reg['correct'] + mod['correct'] == reg['total'] + mod['total']
    return ok, "" if ok else next((m for m in msgs if m), ""), reg, mod


def score(task, cat_dir, outputs, category):
    colour = formula = False
    if 'Debugging' in category:
        colour = 'Color' in task.get('spreadsheet_path', '')
        formula = 'Embedded' in task.get('spreadsheet_path', '')
    missing = False
    try:
        ok, msg, reg, mod = compare(os.path.join(cat_dir, task['spreadsheet_path']),
                                    os.path.join(cat_dir, task['golden_response_path']),
                                    os.path.join(outputs, f"{task['id']}_output.xlsx"),
                                    task['answer_position'], colour, formula)
        missing = not ok and "not exist" in msg
    except Exception as e:
        ok, msg, reg, mod = False, str(e), {'correct': 0, 'total': 0}, {'correct': 0, 'total': 0}
    r = round(reg['correct'] / reg['total'], 4) if reg['total'] else 0.0
    m = round(mod['correct'] / mod['total'], 4) if mod['total'] else 0.0
    if r >= 0.998:
        r = 1.0
    return {'id': task['id'], 'error_message': "" if ok else msg, 'regression_accuracy': r,
            'modification_accuracy': m, 'accuracy': 1.0 if r == 1.0 and m == 1.0 else 0.0,
            'interaction_turns': 0}, missing


def result(cat_dir, outputs):
    """evaluation.py's result JSON for one category folder and one outputs folder."""
    with open(os.path.join(cat_dir, 'dataset.json')) as fp:
        tasks = json.load(fp)
    scored = [score(t, cat_dir, outputs, os.path.basename(cat_dir.rstrip('/'))) for t in tasks]
    scores = [s for s, _ in scored]

    def avg(xs):
        return round(sum(xs) / len(xs), 4) if xs else 0.0
    present = [s for s in scores if "not exist" not in s['error_message']]
    turns = [s['interaction_turns'] for s in scores]
    return {'total_tests': len(scores), 'missing_outputs': sum(1 for _, mi in scored if mi),
            'regression_accuracy': avg([s['regression_accuracy'] for s in present]),
            'modification_accuracy': avg([s['modification_accuracy'] for s in present]),
            'accuracy': avg([s['accuracy'] for s in scores]),
            'interaction_turns_stats': {'average': round(sum(turns) / len(turns), 2), 'maximum': max(turns),
                                        'minimum': min(turns)},
            'scores': scores}


def main():
    if sys.argv[1:] == ['--many']:
        out = [result(cat_dir, outputs) for cat_dir, outputs in json.load(sys.stdin)]
    else:
        out = result(sys.argv[1], sys.argv[2])
    json.dump(out, sys.stdout, indent=4, ensure_ascii=False)


if __name__ == "__main__":
    main()
