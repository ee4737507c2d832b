/**
 * Worked examples for checked_vote's prompts: small models follow a demonstrated format better than a described one
 * (agent-quality-notes.md). Each shows a tiny workbook in the view's own notation, a task, its answer region and the
 * reply. Written for this agent as generic spreadsheet techniques: none is taken from a SpreadsheetBench task or its
 * answer. They are static text in the system prompt, so a local model evaluates them once and reuses their KV cache
 * across candidates and tasks. Example 6 (checked-vote-v11) adds a condition to a formula the user gives, as the
 * outermost IF around the whole of it: the 1.5B, asked so on 39604, dropped the given formula or nested the new
 * condition inside one of its branches.
 */

/** Examples of one formula for the answer region's first cell, filled over the region by the harness. */
export const FORMULA_EXAMPLES = `# Worked examples

## Example 1
Sheet 'Sales': A1:Region | B1:Rep | C1:Units | E1:Region | F1:Units sold
A2:North | B2:Ann | C2:12 | E2:North
A3:South | B3:Bob | C3:7 | E3:South
A4:North | B4:Cid | C4:5 | E4:West
Task: Total units per region of column E.
Answer region: F2:F4. Write the formula for F2.
\`\`\`excel
=SUMIFS($C$2:$C$4,$A$2:$A$4,E2)
\`\`\`

## Example 2
Sheet 'Orders': A1:Order | B1:Product code | C1:Price
A2:1001 | B2:P-7
A3:1002 | B3:P-2
Sheet 'Prices': A1:Code | B1:Name | C1:Unit price
A2:P-2 | B2:Bolt | C2:0.4
A3:P-7 | B3:Nut | C3:0.25
Task: Get each order's price from the Prices sheet.
Answer region: 'Orders'!C2:C3. Write the formula for C2.
\`\`\`excel
=IFERROR(INDEX(Prices!$C$2:$C$3,MATCH(B2,Prices!$A$2:$A$3,0)),"")
\`\`\`

## Example 3
Sheet 'Sheet1': A1:Student | B1:Score | D1:High from | E1:80
D2:Low below | E2:50
A4:Kim | B4:91
A5:Lee | B5:64
A6:Max | B6:38
Task: Grade each student: "High" from the high mark, "Low" below the low mark, else "Mid".
Answer region: C4:C6. Write the formula for C4.
\`\`\`excel
=IF(B4>=$E$1,"High",IF(B4<$E$2,"Low","Mid"))
\`\`\`

## Example 4
Sheet 'Sheet1': A1:Item | B1:Cost | D1:Most expensive first
A2:pen | B2:3
A3:ink | B3:9
A4:pad | B4:5
Task: List the items from the most to the least expensive in column D.
Answer region: D2:D4. Write the formula for D2.
\`\`\`excel
=INDEX($A$2:$A$4,MATCH(LARGE($B$2:$B$4,ROWS($D$2:D2)),$B$2:$B$4,0))
\`\`\`

## Example 5
Sheet 'Log': A1:Entry | B1:Code
A2:ID:4471 shipped
A3:ID:90 pending
Task: Put the number after "ID:" into column B as a number.
Answer region: B2:B3. Write the formula for B2.
\`\`\`excel
=VALUE(MID(A2,4,FIND(" ",A2)-4))
\`\`\`

## Example 6
Sheet 'Pay': A1:Hours | B1:Rate | C1:Pay
A2:45 | B2:20
Task: Add one more condition to my current formula: if the hours are 0 or less, the pay is 0. My formula is IF(A2>40,A2*B2*1.5,A2*B2).
Answer region: C2:C2. Write the formula for C2.
\`\`\`excel
=IF(A2<=0,0,IF(A2>40,A2*B2*1.5,A2*B2))
\`\`\``;

/**
 * An example of a Python candidate: solve(wb) changing the workbook in place. (v8.2 added a second one, a table sorted
 * with the frame's table helpers; v8.3's 1.5B then used them where the task was cell by cell, 599-9, and v8.4 took
 * it out again: the helpers are offered only in the hint for a sort crash.)
 */
export const PYTHON_EXAMPLE = `# Worked example
Sheet 'Tasks': A1:Task | B1:Owner | C1:Status
A2:Paint | B2:Ann | C2:Open
A3:Wire | B3:Bob | C3:Done
A4:Roof | B4:Cid | C4:open
Sheet 'Open': A1:Task | B1:Owner
Task: Copy the task and owner of every open task to the sheet 'Open', below its header.
Answer region: 'Open'!A2:B10
\`\`\`python
def solve(wb):
    src = wb["Tasks"]
    dst = wb["Open"]
    out = 2
    for row in range(2, src.max_row + 1):
        status = src[f"C{row}"].value
        if isinstance(status, str) and status.strip().lower() == "open":
            dst[f"A{out}"] = src[f"A{row}"].value
            dst[f"B{out}"] = src[f"B{row}"].value
            out += 1
\`\`\``;
