"""Generates the bundled DSBench sample (data/dsbench-sample, original layout) and a SpreadsheetBench Verified-style
sample (data/verified-sample, Verified's file names).

Run with the sandbox Python: .tools/sandbox-py/bin/python data/make_dsbench_sample.py
DSBench: data.json as JSON Lines (no trailing newline), data/<id>/introduction.txt, questionN.txt, workbooks (two sheets
with a header row, an .xlsm, an answer workbook that must be ignored), an image, a theory-only competition, an object answer.
Verified: one test case per task: 1_{id}_init.xlsx / 1_{id}_golden.xlsx, bare initial.xlsx / golden.xlsx (13284), and
42930 whose golden file is named with 43930.
"""
import json
import os
import shutil
import struct
import zlib

from openpyxl import Workbook

ROOT = os.path.dirname(os.path.abspath(__file__))
DS = os.path.join(ROOT, "dsbench-sample")
VERIFIED = os.path.join(ROOT, "verified-sample")


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


def tiny_png(path, w=4, h=4):
    """A small valid PNG without image libraries (a red square)."""
    raw = b"".join(b"\x00" + b"\xff\x00\x00" * w for _ in range(h))

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    png = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0))
    png += chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b"")
    with open(path, "wb") as f:
        f.write(png)


def revenue_competition(cid):
    d = os.path.join(DS, "data", cid)
    wb = Workbook()
    ws = wb.active
    ws.title = "Revenue"
    ws.append(["Year", "Units", "Price"])
    for year, units, price in [(2014, 1200, 9.5), (2015, 1350, 9.75), (2016, 1500, 10.0)]:
        ws.append([year, units, price])
    costs = wb.create_sheet("Costs")
    costs.append(["Item", "Amount"])
    for item, amount in [("Rent", 4000), ("Staff", 9000), ("Marketing", 1500)]:
        costs.append([item, amount])
    os.makedirs(d, exist_ok=True)
    wb.save(os.path.join(d, "model.xlsx"))
    answers = Workbook()
    answers.active.append(["SECRET", "answers must never reach a prompt"])
    answers.save(os.path.join(d, "Model_ANSWERS.xlsx"))
    tiny_png(os.path.join(d, "chart.png"))
    write(os.path.join(d, "introduction.txt"), "A small retailer sells one product. The workbook holds its revenue drivers and its costs.")
    write(os.path.join(d, "question1.txt"), "In which year was revenue (units x price) highest?\nA. 2014\nB. 2015\nC. 2016\nD. They are equal")
    write(os.path.join(d, "question2.txt"), "What is the total of all costs?")
    write(os.path.join(d, "question3.txt"), "By how much did revenue grow from 2014 to 2016, in percent (3 decimals)?")
    return {"id": cid, "name": "sample-revenue", "url": "https://example.org/sample-revenue", "txt": "",
            "questions": ["question1", "question2", "question3"], "answers": ["C", 14500, "31.579%"], "year": 2016}


def words_competition(cid):
    d = os.path.join(DS, "data", cid)
    wb = Workbook()
    ws = wb.active
    ws.title = "Words"
    ws.append(["Word", "Score"])
    for word, score in [("ALIBI", 7), ("BIALY", 21), ("RARER", 5)]:
        ws.append([word, score])
    os.makedirs(d, exist_ok=True)
    wb.save(os.path.join(d, "words.xlsm"))
    write(os.path.join(d, "introduction.txt"), "A word game scores words; the macro workbook lists the words and their scores.")
    write(os.path.join(d, "question1.txt"), "Give Q, the number of words, the first word and the highest scoring word with its score.")
    write(os.path.join(d, "question2.txt"), "Which word scores lowest?")
    return {"id": cid, "name": "sample-words", "url": "https://example.org/sample-words", "txt": "",
            "questions": ["question1", "question2"],
            "answers": [{"Q": 1, "# of words": 3, "Xth word": "ALIBI", "Highest Word": "BIALY", "Highest Score": 21}, "RARER"],
            "year": 2017}


def theory_competition(cid):
    d = os.path.join(DS, "data", cid)
    write(os.path.join(d, "introduction.txt"), "Theory questions on spreadsheet modelling; no workbook is given.")
    write(os.path.join(d, "question1.txt"), "Which function returns the net present value of cash flows?\nA. IRR\nB. NPV\nC. PMT\nD. FV")
    write(os.path.join(d, "question2.txt"), "Which function looks up a value in the first column of a table?\nA. HLOOKUP\nB. INDEX\nC. VLOOKUP\nD. MATCH")
    return {"id": cid, "name": "sample-theory", "url": "https://example.org/sample-theory", "txt": "",
            "questions": ["question1", "question2"], "answers": ["B", "C"], "year": 2012}


def make_dsbench():
    shutil.rmtree(DS, ignore_errors=True)
    records = [revenue_competition("00000101"), words_competition("00000102"), theory_competition("00000103")]
    with open(os.path.join(DS, "data.json"), "w", encoding="utf-8") as f:
        f.write("\n".join(json.dumps(r) for r in records))  # JSON Lines, no trailing newline (as the original)
    return sum(len(r["questions"]) for r in records)


def verified_task(task_id, init_name, golden_name, amounts):
    folder = os.path.join(VERIFIED, "spreadsheet", str(task_id))
    os.makedirs(folder, exist_ok=True)
    wb = Workbook()
    ws = wb.active
    ws.title = "Sales"
    ws.append(["Item", "Amount"])
    for i, a in enumerate(amounts):
        ws.append([f"Item {i + 1}", a])
    wb.save(os.path.join(folder, init_name))
    ws.cell(row=len(amounts) + 2, column=1, value="Total")
    ws.cell(row=len(amounts) + 2, column=2, value=sum(amounts))
    wb.save(os.path.join(folder, golden_name))
    row = len(amounts) + 2
    return {"id": task_id, "instruction": f"Put the word Total in A{row} and the sum of column B into B{row}.",
            "spreadsheet_path": f"spreadsheet/{task_id}", "instruction_type": "Cell-Level Manipulation",
            "answer_position": f"B{row}"}


def make_verified():
    shutil.rmtree(VERIFIED, ignore_errors=True)
    tasks = [
        verified_task(71001, "1_71001_init.xlsx", "1_71001_golden.xlsx", [10, 20, 30]),
        verified_task(13284, "initial.xlsx", "golden.xlsx", [5, 7, 11, 13]),
        verified_task(42930, "1_42930_init.xlsx", "1_43930_golden.xlsx", [100, 250]),
    ]
    write(os.path.join(VERIFIED, "dataset.json"), json.dumps(tasks, indent=2))
    return len(tasks)


if __name__ == "__main__":
    print(f"wrote {make_dsbench()} DSBench questions to {DS}")
    print(f"wrote {make_verified()} Verified tasks to {VERIFIED}")
