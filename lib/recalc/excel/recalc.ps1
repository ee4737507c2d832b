<#
.SYNOPSIS
  Recalculates one workbook in Microsoft Excel through COM and saves it as .xlsx. UNVERIFIED on real Excel (see recalc/README.md).

.DESCRIPTION
  Opens InputPath read-only with alerts, events, macros and link updates off, runs Application.CalculateFull(),
  optionally replaces every dynamic-array spill range by its static values, saves to OutputPath as xlsx (51), quits
  Excel and releases every COM object.

  Protocol with recalc/excel.ts (stdout lines):
    EXCEL_PID=<pid>   as soon as Excel has started, so the caller can kill that EXCEL.EXE on a timeout (Excel started
                      through COM is not a child of this PowerShell, so killing this process tree does not reach it)
    RESULT=ok         after a successful save
  Exit codes: 0 ok, 2 open failed, 3 calculate/save failed, 4 bad input, 5 Excel unavailable. Reasons go to stderr.
#>
[CmdletBinding()]
param(
  # $Input is an automatic variable in PowerShell, so the parameters have other names and -Input/-Output as aliases.
  [Parameter(Mandatory = $true)][Alias('Input')][string]$InputPath,
  [Parameter(Mandatory = $true)][Alias('Output')][string]$OutputPath,
  [switch]$MaterializeSpills
)

$ErrorActionPreference = 'Stop'
Set-StrictMode -Version 2

$XlOpenXmlWorkbook = 51
$XlCellTypeFormulas = -4123
$MsoAutomationSecurityForceDisable = 3

Add-Type -Namespace SheetBench -Name Win32 -MemberDefinition @'
[DllImport("user32.dll")]
public static extern uint GetWindowThreadProcessId(IntPtr hWnd, out uint processId);
'@

function Write-Reason([string]$text) { [Console]::Error.WriteLine($text) }

function Release-Com($object) {
  if ($null -ne $object) { [void][System.Runtime.InteropServices.Marshal]::ReleaseComObject($object) }
}

# Replaces each spill range by its values. Spill anchors are collected first: writing values changes the formulas.
function Convert-SpillsToValues($book) {
  foreach ($sheet in @($book.Worksheets)) {
    $formulas = $null
    try { $formulas = $sheet.UsedRange.SpecialCells($XlCellTypeFormulas) } catch { $formulas = $null }
    if ($null -eq $formulas) { Release-Com $sheet; continue }
    $spills = @()
    foreach ($cell in @($formulas.Cells)) {
      if ($cell.HasSpill) {
        $spill = $cell.SpillingToRange
        # Only the anchor (top-left) cell owns the spill; the other cells of the range are skipped.
        if ($null -ne $spill -and $cell.Address() -eq $spill.Cells(1, 1).Address()) { $spills += $spill } else { Release-Com $spill }
      }
      Release-Com $cell
    }
    foreach ($range in $spills) {
      $values = $range.Value2
      $range.Value2 = $values
      Release-Com $range
    }
    Release-Com $formulas
    Release-Com $sheet
  }
}

$exitCode = 0
$excel = $null
$books = $null
$book = $null
try {
  if (-not (Test-Path -LiteralPath $InputPath -PathType Leaf)) {
    Write-Reason "input file not found: $InputPath"
    $exitCode = 4
  } else {
    try {
      $excel = New-Object -ComObject Excel.Application
    } catch {
      Write-Reason "Excel is not available through COM: $($_.Exception.Message)"
      $exitCode = 5
    }
  }
  if ($exitCode -eq 0) {
    [uint32]$excelPid = 0
    [void][SheetBench.Win32]::GetWindowThreadProcessId([IntPtr]$excel.Hwnd, [ref]$excelPid)
    [Console]::Out.WriteLine("EXCEL_PID=$excelPid")
    [Console]::Out.Flush()
    $excel.Visible = $false
    $excel.DisplayAlerts = $false
    $excel.ScreenUpdating = $false
    $excel.EnableEvents = $false
    $excel.AskToUpdateLinks = $false
    $excel.AutomationSecurity = $MsoAutomationSecurityForceDisable
    $books = $excel.Workbooks
    try {
      # Open(Filename, UpdateLinks = 0, ReadOnly = true)
      $book = $books.Open($InputPath, 0, $true)
    } catch {
      Write-Reason "Excel could not open the workbook: $($_.Exception.Message)"
      $exitCode = 2
    }
  }
  if ($exitCode -eq 0) {
    try {
      $excel.CalculateFull()
      if ($MaterializeSpills) { Convert-SpillsToValues $book }
      $book.SaveAs($OutputPath, $XlOpenXmlWorkbook)
      [Console]::Out.WriteLine('RESULT=ok')
    } catch {
      Write-Reason "Excel failed to calculate or save: $($_.Exception.Message)"
      $exitCode = 3
    }
  }
} catch {
  Write-Reason "unexpected failure: $($_.Exception.Message)"
  if ($exitCode -eq 0) { $exitCode = 3 }
} finally {
  if ($null -ne $book) { try { $book.Close($false) } catch { } }
  if ($null -ne $excel) { try { $excel.Quit() } catch { } }
  Release-Com $book
  Release-Com $books
  Release-Com $excel
  [System.GC]::Collect()
  [System.GC]::WaitForPendingFinalizers()
}
exit $exitCode
