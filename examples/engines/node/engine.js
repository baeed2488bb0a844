#!/usr/bin/env node
// tiny-node: the tiny engine's rules (examples/engines/tiny/engine.py) written in JavaScript,
// speaking the rulesfuzz wire protocol (docs/protocol.md) on stdin/stdout. No npm dependencies.
//
//   rulesfuzz run --engine "exec:node examples/engines/node/engine.js"
//   rulesfuzz run --engine "exec:node examples/engines/node/engine.js --bug deathtouch_ignored"
//
// Cards: Grizzly Bears, Typhoid Rats (deathtouch), Darksteel Myr (indestructible), Murder,
// Shock. Their characteristics are read from the project's card data (cards/data/cards.json,
// or the file named by $RULESFUZZ_CARDS), never written here.
//
// Rules: 120.3a/e damage to a player is lost as life, to a creature marked on it; 701.7a
// destroy; 702.12b indestructible; 701.17a sacrifice; 702.2b-c deathtouch; 704.3 state-based
// actions 704.5a, 704.5g, 704.5h until none applies; 400.7 a permanent that leaves the
// battlefield is a new object (no damage, untapped, its owner controls it).
// Anything else (tokens, counters, Auras, combat, shields, other cards, other events) is
// declined as unsupported; malformed or illegal events are refused as illegal actions.
// stderr is the log.
"use strict";

const fs = require("fs");
const path = require("path");
const readline = require("readline");

const PROTOCOL_VERSION = 1;
const ERRORS = { parse_error: -32700, invalid_request: -32600, method_not_found: -32601, internal_error: -32603,
  illegal_action: -32001, unsupported: -32002, bad_board: -32003, unknown_game: -32004, protocol_version: -32005 };
const CARD_NAMES = ["Grizzly Bears", "Typhoid Rats", "Darksteel Myr", "Murder", "Shock"];
const SPELLS = { "Murder": ["destroy", null], "Shock": ["damage", 2] };
const CAPABILITIES = ["destroy", "damage", "deathtouch", "indestructible", "sacrifice", "log.zone_change_causes",
  "sba.life_total", "sba.lethal_damage", "sba.deathtouch_damage"];
const ZONES = ["battlefield", "library", "hand", "graveyard", "exile"];
const UNMODELLED_BOARD = ["token", "counters", "attached_to", "combat", "regeneration_shields"];
const BUGS = {
  deathtouch_ignored: "704.5h: a creature dealt damage by a deathtouch source is not destroyed",
  damage_kept_off_battlefield: "400.7: a creature put into a graveyard keeps its marked damage",
  damage_to_wrong_player: "120.3a: damage to a player is lost as life by the source's controller",
};

class IllegalAction extends Error { constructor(reason, message) { super(message); this.reason = reason; } }
class Unsupported extends Error { constructor(reason, message) { super(message); this.reason = reason; } }
class BadBoard extends Error {}

// ------------------------------------------------------------------ card data
function loadCards() {
  const file = process.env.RULESFUZZ_CARDS || path.join(__dirname, "..", "..", "..", "cards", "data", "cards.json");
  const records = JSON.parse(fs.readFileSync(file, "utf8"));
  const byName = new Map(records.map((r) => [r.name, r]));
  const out = new Map();
  for (const name of CARD_NAMES) {
    const r = byName.get(name);
    if (!r) throw new Error(`card data ${file} has no ${name}`);
    out.set(name, {
      name: r.name, supertypes: r.supertypes || [], types: r.types || [], subtypes: r.subtypes || [],
      colors: r.colors || [], power: toInt(r.power), toughness: toInt(r.toughness),
      keywords: keywords(r.oracle_text || ""), manaValue: manaValue(r.mana_cost || ""),
    });
  }
  return out;
}
function toInt(v) { return v === null || v === undefined || v === "" ? null : (/^-?\d+$/.test(String(v)) ? Number(v) : 0); }
// Keyword abilities on a keyword line of Oracle text (CR 702): the ones these cards have.
function keywords(text) {
  const known = new Set(["deathtouch", "indestructible", "flying", "first strike", "vigilance", "trample", "reach",
    "lifelink", "flash"]);
  const found = [];
  for (const line of text.split("\n")) {
    const parts = line.replace(/\s*\([^)]*\)/g, "").split(",").map((p) => p.trim().toLowerCase()).filter(Boolean);
    if (parts.length && parts.every((p) => known.has(p))) found.push(...parts);
  }
  return found.sort();
}
// CR 202.3: mana value; X is 0 outside the stack (107.3g).
function manaValue(cost) {
  let total = 0;
  for (const m of cost.matchAll(/\{([^}]*)\}/g)) {
    if (/^\d+$/.test(m[1])) total += Number(m[1]);
    else if (!["X", "Y", "Z"].includes(m[1])) total += 1;
  }
  return total;
}
const CARDS = loadCards();
const isCreature = (card) => card.types.includes("Creature");
const isInt = (v) => Number.isInteger(v);

// ------------------------------------------------------------------ a game
class Game {
  constructor(board, bugs) {
    this.bugs = bugs;
    this.players = new Map();
    this.objects = new Map();
    this.log = [];
    if (!board || typeof board !== "object" || !Array.isArray(board.players) || !board.players.length) {
      throw new BadBoard("board.players: expected a non-empty list");
    }
    board.players.forEach((spec, i) => {
      const life = spec && typeof spec === "object" && "life" in spec ? spec.life : 20;
      if (!spec || typeof spec.id !== "string" || this.players.has(spec.id) || !isInt(life)) {
        throw new BadBoard(`board.players[${i}]: expected a new string 'id' and an integer 'life'`);
      }
      this.players.set(spec.id, { life, lost: false });
    });
    const specs = board.objects === undefined ? [] : board.objects;
    if (!Array.isArray(specs)) throw new BadBoard("board.objects: expected a list");
    specs.forEach((spec, i) => this.add(spec, `board.objects[${i}]`));
  }

  add(spec, where) {
    if (!spec || typeof spec !== "object") throw new BadBoard(`${where}: expected an object`);
    for (const feature of UNMODELLED_BOARD) {
      const v = spec[feature];
      if (v && !(typeof v === "object" && !Array.isArray(v) && Object.keys(v).length === 0)) {
        throw new Unsupported(`board:${feature}`, `${where}.${feature}: tiny-node doesn't model it`);
      }
    }
    const id = spec.id, name = spec.card;
    if (typeof id !== "string" || !id || this.objects.has(id) || this.players.has(id)) {
      throw new BadBoard(`${where}.id: expected a new non-empty string, got ${JSON.stringify(id)}`);
    }
    if (!CARDS.has(name)) throw new Unsupported(`card:${name}`, `${where}.card: tiny-node plays only ${CARD_NAMES.join(", ")}`);
    const card = CARDS.get(name);
    const owner = spec.owner, controller = "controller" in spec ? spec.controller : owner;
    const zone = "zone" in spec ? spec.zone : "battlefield";
    if (!this.players.has(owner) || !this.players.has(controller)) {
      throw new BadBoard(`${where}.owner/controller: expected player ids, got ${owner}/${controller}`);
    }
    if (!ZONES.includes(zone)) throw new BadBoard(`${where}.zone: ${JSON.stringify(zone)} is not one of ${ZONES}`);
    const tapped = "tapped" in spec ? spec.tapped : false;
    const sick = "summoning_sick" in spec ? spec.summoning_sick : false;
    const damage = "damage" in spec ? spec.damage : 0;
    if (typeof tapped !== "boolean" || typeof sick !== "boolean" || !isInt(damage) || damage < 0) {
      throw new BadBoard(`${where}: tapped and summoning_sick are booleans, damage an integer >= 0`);
    }
    if (zone !== "battlefield" && (controller !== owner || damage || tapped || sick)) {
      throw new BadBoard(`${where}: only a permanent has a controller of its own, damage or tapped status`);
    }
    if (zone === "battlefield" && !isCreature(card)) {
      throw new BadBoard(`${where}: ${name} can't be on the battlefield (tiny-node's permanents are creatures)`);
    }
    this.objects.set(id, { card, zone, owner, controller, damage, tapped, summoningSick: sick, deathtouchDamage: false });
  }

  // Perform an event, then state-based actions (CR 704.3). Validates before anything changes.
  apply(event) {
    for (const p of this.players.values()) if (p.lost) throw new IllegalAction("game_over", "a player has lost the game");
    const kind = event && typeof event === "object" ? event.type : undefined;
    if (typeof kind !== "string") throw new IllegalAction("bad_event", "expected an event object with a 'type'");
    const handler = { cast: this.cast, damage: this.damageEvent, destroy: this.destroyEvent, sacrifice: this.sacrifice }[kind];
    if (!handler) throw new Unsupported(`event:${kind}`, "tiny-node performs only cast, damage, destroy and sacrifice");
    const perform = handler.call(this, event);
    this.log = [];
    perform();
    this.stateBasedActions();
  }

  permanent(id, creature = false) {
    const obj = typeof id === "string" ? this.objects.get(id) : undefined;
    if (!obj || obj.zone !== "battlefield") throw new IllegalAction("not_on_battlefield", `${JSON.stringify(id)} is not a permanent on the battlefield`);
    if (creature && !isCreature(obj.card)) throw new IllegalAction("illegal_target", `${id} is not a creature`);
    return obj;
  }

  cast(event) {
    const name = event.card, controller = event.controller, targets = event.targets;
    if (!(name in SPELLS)) {
      if (CARDS.has(name)) throw new IllegalAction("not_a_spell", `${name} is not an instant or sorcery`);
      throw new Unsupported(`card:${name}`, `tiny-node casts only ${Object.keys(SPELLS).join(", ")}`);
    }
    if (!this.players.has(controller) || !Array.isArray(targets) || targets.length !== 1) {
      throw new IllegalAction("illegal_target", `${name}: a player casts it with exactly one target`);
    }
    const [effect, amount] = SPELLS[name];
    const target = targets[0];
    if (!(effect === "damage" && typeof target === "string" && this.players.has(target))) this.permanent(target, true);
    if (effect === "damage") return () => this.dealDamage(name, controller, null, target, amount);
    return () => this.destroy([target], name);
  }

  damageEvent(event) {
    const source = this.permanent(event.source);
    const target = event.target, amount = event.amount;
    if (!(typeof target === "string" && this.players.has(target))) this.permanent(target, true);
    if (!isInt(amount) || amount < 1) throw new IllegalAction("bad_event", `amount: expected an integer >= 1`);
    return () => this.dealDamage(event.source, source.controller, source, target, amount);
  }

  destroyEvent(event) {
    const targets = event.targets;
    if (!Array.isArray(targets) || !targets.length || new Set(targets.map((t) => JSON.stringify(t))).size !== targets.length) {
      throw new IllegalAction("bad_event", "targets: expected a non-empty list of distinct ids");
    }
    for (const t of targets) this.permanent(t);
    return () => this.destroy(targets, "destroy effect");
  }

  sacrifice(event) {
    const obj = this.permanent(event.object);
    return () => this.move([event.object], { event: "sacrifice", by: obj.controller });
  }

  // CR 120.3: source is the dealing permanent (null for a spell).
  dealDamage(sourceName, controller, source, target, amount) {
    const deathtouch = source !== null && source.card.keywords.includes("deathtouch");
    this.log.push({ kind: "damage", source: sourceName, target, amount, deathtouch });
    if (this.players.has(target)) {
      const loser = this.bugs.has("damage_to_wrong_player") ? controller : target;
      this.players.get(loser).life -= amount;
    } else {
      const obj = this.objects.get(target);
      obj.damage += amount;
      obj.deathtouchDamage = obj.deathtouchDamage || deathtouch;
    }
  }

  // CR 701.7a, 702.12b: destroy every permanent of ids that isn't indestructible, at once.
  destroy(ids, by) {
    const doomed = ids.filter((id) => {
      const obj = this.objects.get(id);
      return obj.zone === "battlefield" && !obj.card.keywords.includes("indestructible");
    });
    this.move(doomed, { event: "destroy", by });
  }

  // Into their owners' graveyards (CR 400.3); each becomes a new object (400.7).
  move(ids, cause) {
    for (const id of ids) {
      const obj = this.objects.get(id);
      this.log.push({ kind: "zone_change", object: id, from: "battlefield", to: "graveyard", cause });
      Object.assign(obj, { zone: "graveyard", controller: obj.owner, tapped: false, summoningSick: false, deathtouchDamage: false });
      if (!this.bugs.has("damage_kept_off_battlefield")) obj.damage = 0;
    }
  }

  // CR 704.3: perform 704.5a, 704.5g and 704.5h simultaneously until none applies.
  stateBasedActions() {
    for (;;) {
      const lost = [...this.players].filter(([, p]) => p.life <= 0 && !p.lost).map(([id]) => id);
      for (const id of lost) {
        this.players.get(id).lost = true;
        this.log.push({ kind: "player_lost", player: id, rule: "704.5a" });
      }
      const lethal = [], deathtouched = [];
      for (const [id, obj] of this.objects) {
        if (obj.zone !== "battlefield" || obj.card.keywords.includes("indestructible")) continue;
        if (obj.damage >= obj.card.toughness) lethal.push(id);
        else if (obj.deathtouchDamage && !this.bugs.has("deathtouch_ignored")) deathtouched.push(id);
      }
      for (const obj of this.objects.values()) obj.deathtouchDamage = false;
      if (!lost.length && !lethal.length && !deathtouched.length) return;
      this.destroy(lethal, "704.5g");
      this.destroy(deathtouched, "704.5h");
    }
  }

  observe() {
    const objects = {}, zones = { battlefield: [] };
    for (const zone of ZONES.slice(1)) {
      zones[zone] = {};
      for (const pid of this.players.keys()) zones[zone][pid] = [];
    }
    for (const [id, obj] of this.objects) {
      const c = obj.card;
      objects[id] = {
        name: c.name, zone: obj.zone, owner: obj.owner, controller: obj.controller, token: false, tapped: obj.tapped,
        summoning_sick: obj.summoningSick, damage: obj.damage, counters: {}, attached_to: null, combat: null,
        regeneration_shields: 0, supertypes: [...c.supertypes], types: [...c.types], subtypes: [...c.subtypes],
        colors: [...c.colors], keywords: [...c.keywords], power: c.power, toughness: c.toughness, mana_value: c.manaValue,
      };
      if (obj.zone === "battlefield") zones.battlefield.push(id);
      else zones[obj.zone][obj.owner].push(id);
    }
    const players = {};
    for (const [id, p] of this.players) players[id] = { life: p.life, lost: p.lost };
    return { players, objects, zones, log: this.log.map((e) => ({ ...e })) };
  }
}

// ------------------------------------------------------------------ the protocol
function parseArgs(argv) {
  const bugs = new Set();
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === "--bug" && i + 1 < argv.length && argv[i + 1] in BUGS) bugs.add(argv[++i]);
    else {
      process.stderr.write(`usage: engine.js [--bug NAME]...  (NAME: ${Object.keys(BUGS).join(", ")})\n`);
      process.exit(2);
    }
  }
  return bugs;
}

// Serve the protocol on stdin/stdout. hooks.beforeApply(event), if given, runs before each
// apply (tests use it to plant process faults).
function serve(bugs, hooks = {}) {
  const games = new Map();
  let nextGame = 0;
  const send = (message) => process.stdout.write(JSON.stringify(message) + "\n");
  const reply = (id, result) => send({ jsonrpc: "2.0", id, result });
  const fail = (id, name, message, data) => send({ jsonrpc: "2.0", id, error: { code: ERRORS[name], message, ...(data === undefined ? {} : { data }) } });
  const game = (params) => {
    const g = games.get(params.game);
    if (!g) throw Object.assign(new Error(`no game ${JSON.stringify(params.game)}`), { code: "unknown_game" });
    return g;
  };

  const methods = {
    initialize(params) {
      if (params.protocol !== PROTOCOL_VERSION) {
        throw Object.assign(new Error(`tiny-node speaks protocol ${PROTOCOL_VERSION}`), { code: "protocol_version", data: { supported: [PROTOCOL_VERSION] } });
      }
      return { protocol: PROTOCOL_VERSION, name: bugs.size ? "tiny-node-buggy" : "tiny-node", version: "1.0",
        capabilities: CAPABILITIES, cards: CARD_NAMES, ignored_fields: [] };
    },
    new_game(params) {
      const g = new Game(params.board, bugs);
      const handle = `g${++nextGame}`;
      games.set(handle, g);
      return params.observe ? { game: handle, observation: g.observe() } : { game: handle };
    },
    apply(params) {
      const g = game(params);
      if (hooks.beforeApply) hooks.beforeApply(params.event);
      try {
        g.apply(params.event);
      } catch (e) {
        if (e instanceof IllegalAction && params.observe) e.observation = g.observe();
        throw e;
      }
      return params.observe ? { observation: g.observe() } : {};
    },
    observe(params) { return game(params).observe(); },
    dispose(params) { games.delete(params.game); return null; },
    shutdown() { return null; },
  };

  const rl = readline.createInterface({ input: process.stdin, terminal: false });
  rl.on("line", (line) => {
    let message;
    try {
      message = JSON.parse(line);
    } catch (e) {
      fail(null, "parse_error", `not JSON: ${e.message}`);
      return;
    }
    const { id, method } = message;
    const params = message.params || {};
    const notification = !("id" in message);
    if (message.jsonrpc !== "2.0" || typeof method !== "string") {
      fail(notification ? null : id, "invalid_request", "expected a JSON-RPC 2.0 request");
      return;
    }
    if (!(method in methods)) {
      if (!notification) fail(id, "method_not_found", `no method ${method}`);
      return;
    }
    let result;
    try {
      result = methods[method](params);
    } catch (e) {
      if (notification) return;
      if (e instanceof IllegalAction) fail(id, "illegal_action", e.message, { reason: e.reason, ...(e.observation ? { observation: e.observation } : {}) });
      else if (e instanceof Unsupported) fail(id, "unsupported", e.message, { reason: e.reason });
      else if (e instanceof BadBoard) fail(id, "bad_board", e.message);
      else if (e.code && e.code in ERRORS) fail(id, e.code, e.message, e.data);
      else {
        process.stderr.write(`tiny-node: ${e.stack}\n`);
        fail(id, "internal_error", `${e.name}: ${e.message}`);
      }
      return;
    }
    if (!notification) reply(id, result);
    if (method === "shutdown") {
      rl.close();
      process.stdout.end(() => process.exit(0));
    }
  });
  rl.on("close", () => process.exit(0));
  process.stderr.write(`tiny-node ready${bugs.size ? ` (bugs: ${[...bugs].join(", ")})` : ""}\n`);
}

module.exports = { Game, BUGS, serve, parseArgs };

if (require.main === module) serve(parseArgs(process.argv.slice(2)));
