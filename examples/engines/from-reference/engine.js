#!/usr/bin/env node
// A rules engine written from rulesfuzz's documentation alone (README.md, docs/reference.md,
// docs/protocol.md, docs/engines.md, harness/schema/*.json): JSON-RPC 2.0 over stdin/stdout,
// one message per line, no npm dependencies.
//
// Rules: damage (CR 120.3), destroy (701.7a), sacrifice (701.17a), deathtouch (702.2b),
// indestructible (702.12b), +N/+N until end of turn (613.4c), state-based actions 704.5a
// (life), 704.5f (toughness 0), 704.5g (lethal damage), 704.5h (deathtouch damage), 704.5j
// (legend rule), performed simultaneously and repeated until none applies (704.3), and an
// object that leaves the battlefield is a new object with no memory of it (400.7).
//
// Every choice is asked of the harness (`choose`); the engine has no randomness.
// `node engine.js --bug NAME` plants a bug (see BUGS below).
'use strict';

const readline = require('readline');

// ---------------------------------------------------------------- planted bugs
const BUGS = {
  deathtouch_ignored: 'damage from a deathtouch source is treated as ordinary damage (breaks CR 704.5h)',
  legend_keeps_both: 'the legend rule asks which to keep, then keeps them all (breaks CR 704.5j)',
};
const bugArg = process.argv.indexOf('--bug');
const BUG = bugArg >= 0 ? process.argv[bugArg + 1] : null;
if (BUG !== null && !(BUG in BUGS)) {
  process.stderr.write(`unknown --bug ${BUG}; one of ${Object.keys(BUGS).join(', ')}\n`);
  process.exit(2);
}

// ---------------------------------------------------------------- cards
const CARDS = {
  'Grizzly Bears': { mana_cost: '{1}{G}', mana_value: 2, supertypes: [], types: ['Creature'], subtypes: ['Bear'], colors: ['G'], keywords: [], power: 2, toughness: 2 },
  'Hill Giant': { mana_cost: '{3}{R}', mana_value: 4, supertypes: [], types: ['Creature'], subtypes: ['Giant'], colors: ['R'], keywords: [], power: 3, toughness: 3 },
  'Typhoid Rats': { mana_cost: '{B}', mana_value: 1, supertypes: [], types: ['Creature'], subtypes: ['Rat'], colors: ['B'], keywords: ['deathtouch'], power: 1, toughness: 1 },
  'Darksteel Myr': { mana_cost: '{3}', mana_value: 3, supertypes: [], types: ['Artifact', 'Creature'], subtypes: ['Myr'], colors: [], keywords: ['indestructible'], power: 0, toughness: 1 },
  'Isamaru, Hound of Konda': { mana_cost: '{W}', mana_value: 1, supertypes: ['Legendary'], types: ['Creature'], subtypes: ['Hound'], colors: ['W'], keywords: [], power: 2, toughness: 2 },
  'Murder': { mana_cost: '{1}{B}{B}', mana_value: 3, supertypes: [], types: ['Instant'], subtypes: [], colors: ['B'], keywords: [], power: null, toughness: null, spell: { effect: 'destroy', target: 'creature' } },
  'Shock': { mana_cost: '{R}', mana_value: 1, supertypes: [], types: ['Instant'], subtypes: [], colors: ['R'], keywords: [], power: null, toughness: null, spell: { effect: 'damage', amount: 2, target: 'any' } },
  'Lightning Bolt': { mana_cost: '{R}', mana_value: 1, supertypes: [], types: ['Instant'], subtypes: [], colors: ['R'], keywords: [], power: null, toughness: null, spell: { effect: 'damage', amount: 3, target: 'any' } },
};

const INFO = {
  protocol: 1,
  name: 'from-reference' + (BUG ? `-buggy-${BUG}` : ''),
  version: '1.0.0',
  capabilities: [
    'destroy', 'damage', 'sacrifice', 'deathtouch', 'indestructible', 'legend_rule',
    'pt_until_end_of_turn',
    'sba.life_total', 'sba.zero_toughness', 'sba.lethal_damage', 'sba.deathtouch_damage',
    'log.zone_change_causes',
  ],
  cards: Object.keys(CARDS),
};

// ---------------------------------------------------------------- errors
class RpcError extends Error {
  constructor(code, message, data) { super(message); this.code = code; this.data = data; }
}
const illegal = (reason, message) => new RpcError(-32001, message || reason, { reason });
const unsupported = (reason, message) => new RpcError(-32002, message || reason, { reason });
const badBoard = (message) => new RpcError(-32003, message);
const invalidParams = (message) => new RpcError(-32602, message);

// ---------------------------------------------------------------- the game
const ZONES = ['library', 'hand', 'battlefield', 'graveyard', 'exile'];

class Game {
  constructor(board, decider) {
    this.decider = decider;
    this.players = new Map();   // id -> {life, lost}
    this.objects = new Map();   // id -> object, in timestamp order
    this.log = [];
    if (!board || !Array.isArray(board.players) || board.players.length === 0) throw badBoard('players');
    if (!Array.isArray(board.objects)) throw badBoard('objects');
    if (board.stack) throw unsupported('board:stack', 'the stack is not modelled');
    for (const p of board.players) {
      if (typeof p.id !== 'string' || this.players.has(p.id)) throw badBoard(`players: bad id ${JSON.stringify(p.id)}`);
      this.players.set(p.id, { life: p.life === undefined ? 20 : p.life, lost: false });
    }
    for (const o of board.objects) {
      if (typeof o.id !== 'string' || this.objects.has(o.id) || this.players.has(o.id)) throw badBoard(`objects: bad id ${JSON.stringify(o.id)}`);
      const card = CARDS[o.card];
      if (!card) throw unsupported('board:card', `card ${JSON.stringify(o.card)} is not modelled`);
      if (o.token) throw unsupported('board:token', 'tokens are not modelled');
      if (o.counters && Object.values(o.counters).some((n) => n > 0)) throw unsupported('board:counters', 'counters are not modelled');
      if (o.attached_to) throw unsupported('board:attached_to', 'attachments are not modelled');
      if (o.regeneration_shields) throw unsupported('board:regeneration_shields', 'regeneration is not modelled');
      if (!this.players.has(o.owner)) throw badBoard(`objects.${o.id}.owner`);
      const controller = o.controller === undefined ? o.owner : o.controller;
      if (!this.players.has(controller)) throw badBoard(`objects.${o.id}.controller`);
      const zone = o.zone === undefined ? 'battlefield' : o.zone;
      if (!ZONES.includes(zone)) throw badBoard(`objects.${o.id}.zone`);
      this.objects.set(o.id, {
        id: o.id, card: o.card, zone, owner: o.owner,
        controller: zone === 'battlefield' ? controller : o.owner,
        tapped: zone === 'battlefield' ? !!o.tapped : false,
        summoning_sick: !!o.summoning_sick,
        damage: zone === 'battlefield' ? (o.damage || 0) : 0,
        combat: zone === 'battlefield' ? (o.combat === undefined ? null : o.combat) : null,
        deathtouched: false, // dealt damage by a deathtouch source since the last SBA check
        pt: [],              // +N/+N until end of turn (layer 7c)
      });
    }
    // The board is a position: state-based actions are checked by the first event.
  }

  card(obj) { return CARDS[obj.card]; }
  isCreature(obj) { return this.card(obj).types.includes('Creature'); }
  power(obj) {
    const c = this.card(obj);
    if (c.power === null) return null;
    return c.power + obj.pt.reduce((s, e) => s + e.power, 0);
  }
  toughness(obj) {
    const c = this.card(obj);
    if (c.toughness === null) return null;
    return c.toughness + obj.pt.reduce((s, e) => s + e.toughness, 0);
  }
  has(obj, keyword) { return this.card(obj).keywords.includes(keyword); }
  onBattlefield(id) { const o = this.objects.get(id); return o && o.zone === 'battlefield' ? o : null; }

  // ------------------------------------------------------------ zone changes
  move(obj, to, cause) {
    const from = obj.zone;
    obj.zone = to;
    if (from === 'battlefield' && to !== 'battlefield') {
      // CR 400.7: a new object with no memory of its previous existence.
      obj.controller = obj.owner;
      obj.tapped = false;
      obj.damage = 0;
      obj.combat = null;
      obj.deathtouched = false;
      obj.pt = [];
      obj.summoning_sick = false;
    }
    this.log.push({ kind: 'zone_change', object: obj.id, from, to, cause });
  }

  destroy(obj, by) {
    // CR 702.12b: an indestructible permanent isn't destroyed.
    if (this.has(obj, 'indestructible')) return;
    this.move(obj, 'graveyard', { event: 'destroy', by });
  }

  dealDamage(sourceName, sourceObj, targetId, amount) {
    const deathtouch = sourceObj ? this.has(sourceObj, 'deathtouch') : false;
    this.log.push({ kind: 'damage', source: sourceName, target: targetId, amount, deathtouch });
    if (this.players.has(targetId)) {
      this.players.get(targetId).life -= amount;           // CR 120.3a
    } else {
      const t = this.objects.get(targetId);
      t.damage += amount;                                    // CR 120.3e
      if (deathtouch && BUG !== 'deathtouch_ignored') t.deathtouched = true;
    }
  }

  // ------------------------------------------------------------ state-based actions
  async stateBasedActions() {
    for (;;) {
      const losers = [];
      for (const [pid, p] of this.players) if (!p.lost && p.life <= 0) losers.push(pid);     // 704.5a
      const toGraveyard = [];   // [obj, cause]
      const seen = new Set();
      const battlefield = [...this.objects.values()].filter((o) => o.zone === 'battlefield');
      for (const o of battlefield) {
        if (!this.isCreature(o)) continue;
        const t = this.toughness(o);
        if (t <= 0) {                                                                         // 704.5f
          toGraveyard.push([o, { event: 'state_based_action', rule: '704.5f' }]); seen.add(o.id);
        } else if (o.damage >= t && !this.has(o, 'indestructible')) {                         // 704.5g
          toGraveyard.push([o, { event: 'destroy', by: '704.5g' }]); seen.add(o.id);
        } else if (o.deathtouched && o.damage > 0 && !this.has(o, 'indestructible')) {         // 704.5h
          toGraveyard.push([o, { event: 'destroy', by: '704.5h' }]); seen.add(o.id);
        }
      }
      // 704.5j: for each player, each name among their legendary permanents.
      for (const pid of this.players.keys()) {
        const byName = new Map();
        for (const o of battlefield) {
          if (o.controller !== pid || !this.card(o).supertypes.includes('Legendary')) continue;
          if (!byName.has(o.card)) byName.set(o.card, []);
          byName.get(o.card).push(o);
        }
        for (const group of byName.values()) {
          if (group.length < 2) continue;
          const kept = await this.decider.choose(pid, 'legend_rule', group.map((o) => o.id));
          if (BUG === 'legend_keeps_both') continue;
          for (const o of group) {
            if (o.id === kept || seen.has(o.id)) continue;
            toGraveyard.push([o, { event: 'state_based_action', rule: '704.5j' }]); seen.add(o.id);
          }
        }
      }
      for (const o of this.objects.values()) o.deathtouched = false;
      if (losers.length === 0 && toGraveyard.length === 0) return;
      for (const pid of losers) {
        this.players.get(pid).lost = true;
        this.log.push({ kind: 'player_lost', player: pid, rule: '704.5a' });
      }
      for (const [o, cause] of toGraveyard) this.move(o, 'graveyard', cause);
    }
  }

  // ------------------------------------------------------------ events
  async apply(event) {
    if (!event || typeof event.type !== 'string') throw invalidParams('event.type');
    const handler = this['event_' + event.type];
    if (!handler) throw unsupported(`event:${event.type}`, `event type ${event.type} is not modelled`);
    const perform = handler.call(this, event);   // validates, returns the action to perform
    this.log = [];
    await perform();
    await this.stateBasedActions();
  }

  requirePermanent(id, field) {
    if (typeof id !== 'string') throw invalidParams(field);
    const o = this.objects.get(id);
    if (!o) throw illegal('no_such_object', `${field}=${JSON.stringify(id)} is no object`);
    if (o.zone !== 'battlefield') throw illegal('not_on_battlefield', `${field}=${JSON.stringify(id)} is in the ${o.zone}, not on the battlefield`);
    return o;
  }

  requirePlayer(id, field) {
    if (!this.players.has(id)) throw illegal('no_such_player', `${field}=${JSON.stringify(id)} is no player`);
  }

  event_damage(e) {
    const source = this.requirePermanent(e.source, 'source');
    if (!Number.isInteger(e.amount) || e.amount < 1) throw invalidParams('amount');
    let target = e.target;
    if (!this.players.has(target)) {
      const t = this.requirePermanent(target, 'target');
      if (!this.isCreature(t)) throw illegal('not_a_creature', 'damage to a noncreature permanent');
    }
    return async () => this.dealDamage(source.id, source, target, e.amount);
  }

  event_destroy(e) {
    if (!Array.isArray(e.targets) || e.targets.length === 0) throw invalidParams('targets');
    const objs = e.targets.map((id) => this.requirePermanent(id, 'targets'));
    if (e.cant_be_regenerated !== undefined && typeof e.cant_be_regenerated !== 'boolean') throw invalidParams('cant_be_regenerated');
    // CR 701.7a: all at the same time (nothing here replaces destruction).
    return async () => { for (const o of objs) this.destroy(o, 'destroy effect'); };
  }

  event_sacrifice(e) {
    const o = this.requirePermanent(e.object, 'object');
    return async () => this.move(o, 'graveyard', { event: 'sacrifice', by: o.controller });
  }

  event_modify_pt(e) {
    const o = this.requirePermanent(e.object, 'object');
    if (!this.isCreature(o)) throw illegal('not_a_creature', 'modify_pt of a noncreature');
    if (!Number.isInteger(e.power) || !Number.isInteger(e.toughness)) throw invalidParams('power/toughness');
    return async () => { o.pt.push({ power: e.power, toughness: e.toughness }); };
  }

  event_put_onto_battlefield(e) {
    if (typeof e.id !== 'string' || e.id.length === 0) throw invalidParams('id');
    const card = CARDS[e.card];
    if (!card) throw unsupported('card', `card ${JSON.stringify(e.card)} is not modelled`);
    if (card.spell) throw illegal('not_a_permanent', `${e.card} is not a permanent card`);
    if (e.copy_of != null || e.x != null || e.tapped || e.attach_to != null) {
      throw unsupported('event:put_onto_battlefield', 'copies, X, tapped and Auras are not modelled');
    }
    this.requirePlayer(e.controller, 'controller');
    if (this.objects.has(e.id) || this.players.has(e.id)) throw illegal('id_in_use', `id ${e.id} is in use`);
    return async () => {
      const o = {
        id: e.id, card: e.card, zone: 'battlefield', owner: e.controller, controller: e.controller,
        tapped: false, summoning_sick: card.types.includes('Creature'), damage: 0, combat: null, deathtouched: false, pt: [],
      };
      this.objects.set(o.id, o);
      this.log.push({ kind: 'zone_change', object: o.id, from: null, to: 'battlefield', cause: { event: 'put_onto_battlefield' } });
    };
  }

  event_cast(e) {
    const card = CARDS[e.card];
    if (!card) throw unsupported('card', `card ${JSON.stringify(e.card)} is not modelled`);
    if (!card.spell) throw unsupported('cast:permanent', 'casting permanent spells is not modelled');
    if (e.id !== undefined || e.token_ids !== undefined || e.division !== undefined) throw unsupported('cast', 'id, token_ids and division are not modelled');
    this.requirePlayer(e.controller, 'controller');
    const targets = e.targets || [];
    if (targets.length !== 1) throw illegal('wrong_number_of_targets', `${e.card} has one target`);
    const t = targets[0];
    const spell = card.spell;
    if (spell.target === 'creature' || !this.players.has(t)) {
      const o = this.requirePermanent(t, 'targets');
      if (!this.isCreature(o)) throw illegal('illegal_target', `${t} is not a creature`);
    }
    if (spell.effect === 'destroy') {
      return async () => this.destroy(this.objects.get(t), e.card);
    }
    return async () => this.dealDamage(e.card, null, t, spell.amount);
  }

  // ------------------------------------------------------------ observation
  observe() {
    const players = {};
    for (const [pid, p] of this.players) players[pid] = { life: p.life, lost: p.lost };
    const objects = {};
    const zones = { battlefield: [] };
    for (const z of ZONES) if (z !== 'battlefield') { zones[z] = {}; for (const pid of this.players.keys()) zones[z][pid] = []; }
    for (const o of this.objects.values()) {
      const c = this.card(o);
      objects[o.id] = {
        name: o.card, zone: o.zone, owner: o.owner, controller: o.controller, token: false,
        tapped: o.tapped, summoning_sick: o.summoning_sick, damage: o.damage, counters: {},
        attached_to: null, combat: o.combat, regeneration_shields: 0,
        supertypes: [...c.supertypes], types: [...c.types], subtypes: [...c.subtypes],
        colors: [...c.colors], keywords: [...c.keywords],
        power: this.power(o), toughness: this.toughness(o), mana_value: c.mana_value,
      };
      if (o.zone === 'battlefield') zones.battlefield.push(o.id);
      else zones[o.zone][o.owner].push(o.id);
    }
    return { players, objects, zones, log: this.log.map((e) => ({ ...e })) };
  }
}

// ---------------------------------------------------------------- JSON-RPC
const out = (msg) => process.stdout.write(JSON.stringify(msg) + '\n');
// FROMREF_TRACE=FILE appends every event and what became of it to FILE (one JSON a line).
const TRACE = process.env.FROMREF_TRACE;
const trace = (entry) => require('fs').appendFileSync(TRACE, JSON.stringify(entry) + '\n');
const log = (text) => process.stderr.write(`[from-reference] ${text}\n`);

const inbox = [];
const waiting = [];
let closed = false;
const rl = readline.createInterface({ input: process.stdin, terminal: false });
rl.on('line', (line) => { if (waiting.length) waiting.shift()(line); else inbox.push(line); });
rl.on('close', () => { closed = true; while (waiting.length) waiting.shift()(null); });
function nextLine() {
  if (inbox.length) return Promise.resolve(inbox.shift());
  if (closed) return Promise.resolve(null);
  return new Promise((resolve) => waiting.push(resolve));
}

let callbackCounter = 0;
async function callHarness(method, params) {
  const id = `h${++callbackCounter}`;
  out({ jsonrpc: '2.0', id, method, params });
  const line = await nextLine();
  if (line === null) process.exit(0);
  let msg;
  try { msg = JSON.parse(line); } catch (err) { log(`not JSON from the harness: ${line}`); process.exit(1); }
  if (msg.id !== id) { log(`expected the answer to ${id}, got ${line}`); process.exit(1); }
  if (msg.error) { log(`harness refused ${method}: ${msg.error.message}`); process.exit(0); }
  return msg.result;
}

const decider = {
  async choose(player, kind, options) {
    const answer = await callHarness('choose', { player, kind, options });
    if (!options.includes(answer)) throw new Error(`answer ${JSON.stringify(answer)} to ${kind} is not an option`);
    return answer;
  },
};

const games = new Map();
let gameCounter = 0;

function gameOf(params) {
  const g = games.get(params && params.game);
  if (!g) throw new RpcError(-32004, `no game ${JSON.stringify(params && params.game)}`);
  return g;
}

const METHODS = {
  async initialize(params) {
    if (!params || params.protocol !== 1) throw new RpcError(-32005, 'protocol version 1 only', { supported: [1] });
    return INFO;
  },
  async new_game(params) {
    if (!params || typeof params.board !== 'object') throw invalidParams('board');
    const game = new Game(params.board, decider);
    const handle = `g${++gameCounter}`;
    games.set(handle, game);
    return params.observe ? { game: handle, observation: game.observe() } : { game: handle };
  },
  async apply(params) {
    const game = gameOf(params);
    try {
      await game.apply(params.event);
    } catch (err) {
      if (TRACE) trace({ event: params.event, refused: err.code, reason: err.data && err.data.reason });
      if (err instanceof RpcError && err.code === -32001 && params.observe) err.data.observation = game.observe();
      throw err;
    }
    if (TRACE) trace({ event: params.event, log: game.log });
    return params.observe ? { observation: game.observe() } : {};
  },
  async observe(params) { return gameOf(params).observe(); },
  async dispose(params) { games.delete(params && params.game); return null; },
  async shutdown() { return null; },
};

async function main() {
  for (;;) {
    const line = await nextLine();
    if (line === null) return;
    if (line.trim() === '') continue;
    let msg;
    try { msg = JSON.parse(line); } catch (err) {
      out({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'parse error' } });
      continue;
    }
    const id = msg.id;
    const isRequest = id !== undefined && id !== null;
    const method = METHODS[msg.method];
    if (msg.jsonrpc !== '2.0' || typeof msg.method !== 'string') {
      if (isRequest) out({ jsonrpc: '2.0', id, error: { code: -32600, message: 'invalid request' } });
      continue;
    }
    if (!method) {
      if (isRequest) out({ jsonrpc: '2.0', id, error: { code: -32601, message: `unknown method ${msg.method}` } });
      continue;
    }
    try {
      const result = await method(msg.params || {});
      if (isRequest) out({ jsonrpc: '2.0', id, result });
    } catch (err) {
      if (!isRequest) continue;
      if (err instanceof RpcError) {
        const error = { code: err.code, message: err.message };
        if (err.data !== undefined) error.data = err.data;
        out({ jsonrpc: '2.0', id, error });
      } else {
        log(err && err.stack ? err.stack : String(err));
        out({ jsonrpc: '2.0', id, error: { code: -32603, message: String(err && err.message), data: { type: err && err.name, traceback: err && err.stack } } });
      }
    }
    if (msg.method === 'shutdown') process.exit(0);
  }
}

main().catch((err) => { log(err && err.stack ? err.stack : String(err)); process.exit(1); });
