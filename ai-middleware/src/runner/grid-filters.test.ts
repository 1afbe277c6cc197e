import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { CellValue } from '@tessera/contracts';
import { isLogHeader, isLogLine, looksLikeSchedule, looksLikeSolverDebugLog } from './grid-filters.js';

const grid = (headers: string[], rows: CellValue[][] = []) => ({ headers, rows });

test('schedule shape: kept — a doctor header, 3+ day headers of 1–2 digits, 5+ headers', () => {
  for (const headers of [
    ['Doctor ID', '1', '2', '3', '4'],
    ['doctor_name', 'Shift', '01', '02', '31'],
    ['DoctorID', 'Team', '7', '8', '9', 'Total'],
    ['Name', 'Doctor Name', '1', '2', '3'],
  ]) {
    assert.equal(looksLikeSchedule(grid(headers)), true, headers.join('|'));
  }
});

test('schedule shape: discarded — each condition missing in turn', () => {
  for (const headers of [
    ['Doctor ID', '1', '2', '3'], // only 4 headers
    ['Nurse ID', '1', '2', '3', '4'], // no doctor header
    ['Doctor', '1', '2', '3', '4'], // "doctor" alone is neither id nor name
    ['Doctor ID', 'Mon', 'Tue', 'Wed', 'Thu'], // no numeric headers
    ['Doctor ID', '1', '2', 'Notes', 'Total'], // 2 numeric headers
    ['Doctor ID', '100', '200', '300', '2024'], // numbers of 3+ digits are not days
    ['Region', 'Amount', 'Count', 'Mean', 'Max'], // a plain aggregate
  ]) {
    assert.equal(looksLikeSchedule(grid(headers)), false, headers.join('|'));
  }
});

test('log lines (rule a cells): levels, timestamps, tracebacks, solver wording and figures', () => {
  for (const line of [
    'INFO solving model',
    '[debug] presolve done',
    'Warning: time limit reached',
    'error - infeasible',
    '2026-11-23 10:00:01 WARNING relaxing coverage',
    '2026-11-23T10:00:01Z [INFO] start',
    'Traceback (most recent call last):',
    '  File "<code>", line 3, in <module>',
    'Running HiGHS 1.7.0 (git hash: 50670fd4c): Copyright (c) 2024',
    'Welcome to the CBC MILP Solver',
    'Presolving model',
    'Solving MIP model with:',
    'Iteration 12: obj = 3.5',
    'MIP gap 0.01%',
    'Nodes explored: 40',
    'Status: Optimal',
    'Objective value: 12.0',
  ]) {
    assert.equal(isLogLine(line), true, line);
  }
});

test('not log lines: names, words and figures of ordinary data', () => {
  for (const line of ['Alice', 'North', 'ERROR', 'Info', '2026-11-23 10:00', '42', 'Night shift', 'Objective', 'CBC', 'Error rate', 'Team 3']) {
    assert.equal(isLogLine(line), false, line);
  }
});

test('headers showing log text (rule b) vs honest column names', () => {
  for (const h of ['INFO: Doctor ID', 'Objective value: 12', 'Status: Optimal', 'gap=0.1%', 'Running HiGHS 1.7.0', '[DEBUG] row 1', 'Presolving model']) {
    assert.equal(isLogHeader(h), true, h);
  }
  for (const h of ['Doctor ID', 'Objective', 'Gap (%)', 'Nodes 2', 'Status', 'Iteration', 'Time: 08:00', 'Error', 'INFO']) {
    assert.equal(isLogHeader(h), false, h);
  }
});

test('noise: discarded — a single column mostly of debug lines, or a header showing log text', () => {
  const discarded = [
    grid(['A'], [['Running HiGHS 1.7.0'], ['Presolving model'], ['Iteration 1: obj = 5'], ['Optimal solution found']]),
    // half of the non-empty cells are log lines: still noise (the blank cell does not count)
    grid(['log'], [['INFO start'], [null], ['Schedule ready'], ['Status: Optimal'], ['done']]),
    grid(['INFO: Doctor ID', '1', '2', '3', '4'], [['D1', 'M', 'N', 'O', 'M']]),
    grid(['Objective value: 12', 'x'], [[1, 2]]),
  ];
  for (const g of discarded) assert.equal(looksLikeSolverDebugLog(g), true, JSON.stringify(g));
});

test('noise: kept — real tables, single columns of data, a minority of log-like cells', () => {
  const kept = [
    grid(['Doctor ID', '1', '2', '3', '4'], [['D1', 'M', 'N', 'O', 'M']]),
    grid(['A'], [['Alice'], ['Bob'], ['Carol']]),
    grid(['Total'], [[12], [40]]),
    grid(['A'], [['Alice'], ['Bob'], ['Status: Optimal']]), // 1 of 3
    grid(['Run', 'Objective', 'Gap (%)', 'Nodes'], [[1, 12.5, 0.01, 40]]),
    grid(['note'], []),
  ];
  for (const g of kept) assert.equal(looksLikeSolverDebugLog(g), false, JSON.stringify(g));
});
