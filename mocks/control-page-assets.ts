// The page's CSS and script (control-page.ts serves them inline, under its CSP nonce). Plain script,
// no modules: a page with nothing to build. Every value from the mock is set with textContent or as
// a property, never parsed as HTML.
export const PAGE_STYLE = `
:root { font: 14px/1.4 system-ui, sans-serif; color: #1d232a; background: #f6f7f9; }
body { margin: 0; padding: 12px 16px; }
header { display: flex; flex-wrap: wrap; gap: 8px 16px; align-items: center; margin-bottom: 10px; }
h1 { font-size: 18px; margin: 0 12px 0 0; }
h2 { font-size: 14px; margin: 0 0 6px; text-transform: uppercase; letter-spacing: .04em; color: #4a5561; }
section { background: #fff; border: 1px solid #dde1e6; border-radius: 6px; padding: 10px 12px; margin-bottom: 10px; }
.grid { display: grid; grid-template-columns: minmax(0, 1fr) minmax(0, 1fr); gap: 10px; }
table { border-collapse: collapse; width: 100%; font-size: 13px; }
th, td { text-align: left; padding: 3px 6px; border-bottom: 1px solid #eef0f2; white-space: nowrap; }
td.path { max-width: 340px; overflow: hidden; text-overflow: ellipsis; }
th { color: #4a5561; font-weight: 600; }
tr.error td { color: #a1260d; } tr.fault td { color: #fff; background: #a1260d; }
form { display: flex; flex-wrap: wrap; gap: 6px; align-items: end; margin-bottom: 8px; }
label { display: flex; flex-direction: column; font-size: 12px; color: #4a5561; }
input, select, button { font: inherit; padding: 3px 6px; }
input[type=number] { width: 80px; }
button { border: 1px solid #9aa4ae; border-radius: 4px; background: #fff; cursor: pointer; }
button:disabled { opacity: .45; cursor: default; }
#clock-now { font-variant-numeric: tabular-nums; font-weight: 600; }
#message.error { color: #a1260d; } #message.ok { color: #1e6b2f; }
#live { font-size: 12px; color: #4a5561; }
`;

export const PAGE_SCRIPT = `
'use strict';
const data = JSON.parse(document.getElementById('petkit-data').textContent);
const $ = (id) => document.getElementById(id);
const MAX_ROWS = 100;
function cell(text, className) {
  const td = document.createElement('td');
  td.textContent = text === null || text === undefined ? '' : String(text);
  if (className) td.className = className;
  return td;
}
function option(value, text) {
  const o = document.createElement('option');
  o.value = value;
  o.textContent = text;
  return o;
}
function say(text, ok) {
  const m = $('message');
  m.textContent = text;
  m.className = ok ? 'ok' : 'error';
}
const clockText = (ms) => new Date(ms).toISOString().slice(11, 19);
async function call(method, path, body) {
  const init = { method, headers: {} };
  if (body !== undefined) {
    init.headers['content-type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  const res = await fetch(path, init);
  const text = await res.text();
  let json = null;
  try { json = text === '' ? null : JSON.parse(text); } catch { json = null; }
  if (!res.ok) throw new Error(json && typeof json.message === 'string' ? json.message : method + ' ' + path + ': ' + res.status);
  return json;
}
const failed = (error) => say(String(error && error.message ? error.message : error), false);

// The journal, live.
let lastId = 0;
function addEntry(entry) {
  // A reconnect is sent only the entries after the last id, so an id no later than it is another
  // run's: the mock was started again, its ids from 1. Its rows replace the old run's.
  if (entry.id <= lastId) $('journal-rows').replaceChildren();
  lastId = entry.id;
  const tr = document.createElement('tr');
  tr.dataset.id = String(entry.id);
  if (entry.fault) tr.className = 'fault';
  else if (entry.status >= 400) tr.className = 'error';
  tr.append(
    cell(entry.id), cell(clockText(entry.time)), cell(entry.method), cell(entry.path, 'path'),
    cell(entry.status === 0 ? '-' : entry.status), cell(entry.code), cell(entry.rule),
    cell(entry.fault), cell(entry.key ? entry.key.name : ''),
  );
  tr.cells[3].title = entry.path;
  const body = $('journal-rows');
  body.prepend(tr);
  while (body.rows.length > MAX_ROWS) body.lastElementChild.remove();
}
function listen() {
  const events = new EventSource('events?after=0');
  events.addEventListener('request', (event) => {
    addEntry(JSON.parse(event.data));
    later();
  });
  events.addEventListener('open', () => { $('live').textContent = 'live'; });
  events.addEventListener('error', () => { $('live').textContent = 'reconnecting…'; });
}

// Windows and rules: read again 250 ms after a request or a clock change, never polled.
let windows = null;
let pending;
function later() {
  clearTimeout(pending);
  pending = setTimeout(() => { loadLimits(); loadRules(); }, 250);
}
async function loadLimits() {
  try { windows = await call('GET', 'limits'); } catch (error) { failed(error); return; }
  const body = $('window-rows');
  body.replaceChildren();
  const now = Date.parse(windows.now);
  let banned = false;
  for (const key of windows.keys) {
    const tr = document.createElement('tr');
    tr.dataset.key = key.key;
    const ban = key.bannedUntil === null ? null : Date.parse(key.bannedUntil);
    if (ban !== null && ban > now) banned = true;
    tr.append(
      cell(key.key), cell(key.plan),
      cell(key.minute.remaining + ' / ' + key.minute.limit, 'minute'), cell(clockText(key.minute.reset * 1000)),
      cell(key.day.remaining + ' / ' + key.day.limit, 'day'),
      cell(ban !== null && ban > now ? clockText(ban) : '-', 'banned'),
    );
    body.append(tr);
  }
  $('clock-ban-end').disabled = !banned;
}
async function loadRules() {
  let listed;
  try { listed = await call('GET', 'rules'); } catch (error) { failed(error); return; }
  const body = $('rule-rows');
  body.replaceChildren();
  for (const rule of listed.rules) {
    const tr = document.createElement('tr');
    tr.dataset.rule = rule.id;
    const match = [rule.operation || rule.method || 'any', rule.path || '', rule.key === undefined ? '' : 'key ' + (rule.key === null ? '(none)' : rule.key)]
      .filter(Boolean).join(' ');
    const r = rule.respond || {};
    const answer = [r.status ? 'status ' + r.status : '', r.fault ? 'fault ' + r.fault : '', r.delayMs ? 'delay ' + r.delayMs + ' ms' : '']
      .filter(Boolean).join(', ');
    const on = document.createElement('input');
    on.type = 'checkbox';
    on.checked = rule.enabled;
    on.title = 'on/off';
    on.addEventListener('change', () => {
      call('PATCH', 'rules/' + encodeURIComponent(rule.id), { enabled: on.checked })
        .then(() => { say(rule.id + (on.checked ? ' on' : ' off'), true); loadRules(); }, failed);
    });
    const drop = document.createElement('button');
    drop.type = 'button';
    drop.textContent = 'disarm';
    drop.addEventListener('click', () => {
      call('DELETE', 'rules/' + encodeURIComponent(rule.id)).then(() => { say(rule.id + ' disarmed', true); loadRules(); }, failed);
    });
    const switchCell = document.createElement('td');
    switchCell.append(on);
    const dropCell = document.createElement('td');
    dropCell.append(drop);
    tr.append(cell(rule.id), cell(match), cell(answer), cell(rule.fired + ' / ' + rule.matched), switchCell, dropCell);
    body.append(tr);
  }
}

// The form that arms a rule: the statuses are those the chosen operation documents.
function fillAnswers() {
  const operation = data.operations.find((o) => o.id === $('arm-operation').value);
  const select = $('arm-respond');
  const kept = select.value;
  select.replaceChildren();
  const statuses = document.createElement('optgroup');
  statuses.label = operation ? 'status' : 'status (choose an operation)';
  for (const status of operation ? operation.statuses : []) statuses.append(option('status:' + status, String(status)));
  const faults = document.createElement('optgroup');
  faults.label = 'network fault';
  for (const fault of ['reset', 'close', 'malformed', 'truncated', 'hang']) faults.append(option('fault:' + fault, fault));
  select.append(statuses, faults, option('delay', 'delay only'));
  if ([...select.options].some((o) => o.value === kept)) select.value = kept;
}
function setUpForm() {
  const operations = $('arm-operation');
  operations.append(option('', 'any operation'));
  for (const o of data.operations) operations.append(option(o.id, o.id + ' (' + o.method + ' ' + o.path + ')'));
  const keys = $('arm-key');
  keys.append(option('', 'any key'), option('(none)', 'no valid key'));
  for (const key of data.keys) keys.append(option(key, key));
  operations.addEventListener('change', fillAnswers);
  fillAnswers();
  $('arm').addEventListener('submit', (event) => {
    event.preventDefault();
    const rule = {};
    const respond = {};
    if (operations.value) rule.operation = operations.value;
    if (keys.value === '(none)') rule.key = null;
    else if (keys.value) rule.key = keys.value;
    const chosen = $('arm-respond').value;
    if (chosen.startsWith('status:')) respond.status = Number(chosen.slice(7));
    if (chosen.startsWith('fault:')) respond.fault = chosen.slice(6);
    const delay = $('arm-delay').value;
    if (delay !== '') respond.delayMs = Number(delay);
    const times = $('arm-times').value;
    if (times !== '') rule.times = Number(times);
    rule.respond = respond;
    call('POST', 'rules', rule).then((armed) => { say('Armed ' + armed.id, true); loadRules(); }, failed);
  });
}

// The clock: shown as read, ticking on the page (no request) unless frozen.
let clock = null;
let readAt = 0;
function showClock() {
  if (clock === null) return;
  const now = Date.parse(clock.now) + (clock.frozen ? 0 : Date.now() - readAt);
  $('clock-now').textContent = new Date(now).toISOString().replace('T', ' ').slice(0, 19) + ' UTC';
  $('clock-state').textContent = (clock.frozen ? 'frozen, ' : '') + (clock.offsetSeconds === 0 ? 'real time' : 'offset ' + clock.offsetSeconds + ' s');
  $('clock-freeze').textContent = clock.frozen ? 'Unfreeze' : 'Freeze';
}
function setClock(reading) {
  clock = reading;
  readAt = Date.now();
  showClock();
}
async function loadClock() {
  try { setClock(await call('GET', 'clock')); } catch (error) { failed(error); }
}
async function moveClock(change) {
  try { setClock(await call('POST', 'clock', change)); } catch (error) { failed(error); return; }
  later();
}
/** Seconds from the mock's now to the soonest of the times \`pick\` gives (Unix ms), at least 1. */
async function untilSoonest(pick) {
  const read = await call('GET', 'limits');
  const now = Date.parse(read.now);
  const times = read.keys.map(pick).filter((t) => t !== null && t > now);
  if (times.length === 0) return null;
  return Math.max(1, Math.ceil((Math.min(...times) - now) / 1000));
}
function setUpClock() {
  $('clock-minute').addEventListener('click', () => moveClock({ advanceSeconds: 60 }));
  $('clock-next-window').addEventListener('click', () => {
    untilSoonest((key) => key.minute.reset * 1000).then((seconds) => {
      if (seconds !== null) moveClock({ advanceSeconds: seconds });
    }, failed);
  });
  $('clock-ban-end').addEventListener('click', () => {
    untilSoonest((key) => (key.bannedUntil === null ? null : Date.parse(key.bannedUntil))).then((seconds) => {
      if (seconds === null) say('No key is banned.', true);
      else moveClock({ advanceSeconds: seconds });
    }, failed);
  });
  $('clock-freeze').addEventListener('click', () => moveClock({ frozen: !(clock && clock.frozen) }));
  setInterval(showClock, 1000);
}

function setUpReset() {
  $('reset').addEventListener('submit', (event) => {
    event.preventDefault();
    const seed = $('reset-seed').value;
    call('POST', 'reset', seed === '' ? undefined : { seed: Number(seed) }).then((done) => {
      $('journal-rows').replaceChildren();
      say('Reset: ' + done.pets + ' pets, rules disarmed, real time.', true);
      loadClock();
      loadLimits();
      loadRules();
    }, failed);
  });
}

setUpForm();
setUpClock();
setUpReset();
listen();
loadClock();
loadLimits();
loadRules();
document.body.dataset.ready = 'true';
`;
