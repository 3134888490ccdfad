// Trattoria Verde table-booking assistant: a scripted chat bot over HTTP JSON. Written by a helper playing a
// new user of `gauntlet boundary` (it never read src/boundary/); used only to measure (bench/boundary-http-bot.ts).
// POST /chat {"message","session"} -> {"reply"}. Usage: node bot.mjs [--port 8787] [--fault a,b]
import http from "node:http";

const args = process.argv.slice(2);
const opt = (k, d) => {
  const i = args.indexOf(k);
  return i >= 0 ? args[i + 1] : d;
};
const PORT = Number(opt("--port", "8787"));
const FAULTS = new Set((opt("--fault", "") || "").split(",").filter(Boolean));
const KNOWN = ["skipConfirm", "noGuestLimit", "anyPhone", "wrongTime", "sameDayCancel", "maybeYes"];
for (const f of FAULTS)
  if (!KNOWN.includes(f)) {
    console.error(`unknown fault ${f}; known: ${KNOWN.join(", ")}`);
    process.exit(2);
  }

const TODAY = "2025-06-10"; // fixed clock
const MAX_GUESTS = 8;
const customers = {
  5550142: {
    name: "Ana Ruiz",
    bookings: {
      TV2001: { date: "2025-06-14", time: "19:00", guests: 4 },
      TV2002: { date: "2025-06-10", time: "20:00", guests: 2 },
    },
  },
  5550177: { name: "Ben Okafor", bookings: { TV3001: { date: "2025-06-20", time: "12:30", guests: 2 } } },
  5550199: { name: "Chloe Martin", bookings: {} },
};

// deterministic per-session wording
function hash(s) {
  let h = 2166136261;
  for (const c of s) {
    h ^= c.charCodeAt(0);
    h = Math.imul(h, 16777619);
  }
  return h >>> 0;
}
function pick(st, variants) {
  st.rng = (Math.imul(st.rng, 1103515245) + 12345) >>> 0;
  return variants[st.rng % variants.length];
}

const MONTHS = [
  "january",
  "february",
  "march",
  "april",
  "may",
  "june",
  "july",
  "august",
  "september",
  "october",
  "november",
  "december",
];
function fmtDate(iso) {
  const [y, m, d] = iso.split("-").map(Number);
  return `${d} ${MONTHS[m - 1][0].toUpperCase()}${MONTHS[m - 1].slice(1)} ${y}`;
}
function parseDate(t) {
  t = t.toLowerCase();
  let m = t.match(/\b(\d{4})-(\d{2})-(\d{2})\b/);
  if (m) return `${m[1]}-${m[2]}-${m[3]}`;
  if (/\btoday\b/.test(t)) return TODAY;
  if (/\btomorrow\b/.test(t)) return "2025-06-11";
  for (let i = 0; i < 12; i++) {
    const mon = MONTHS[i];
    const re1 = new RegExp(`\\b(\\d{1,2})(?:st|nd|rd|th)?\\s+(?:of\\s+)?${mon}(?:\\s+(\\d{4}))?`);
    const re2 = new RegExp(`\\b${mon}\\s+(\\d{1,2})(?:st|nd|rd|th)?(?:,?\\s+(\\d{4}))?`);
    m = t.match(re1) || t.match(re2);
    if (m) return `${m[2] || "2025"}-${String(i + 1).padStart(2, "0")}-${String(m[1]).padStart(2, "0")}`;
  }
  return null;
}
function parseTime(t) {
  t = t.toLowerCase();
  let m = t.match(/\b(\d{1,2})[:.](\d{2})\s*(am|pm)?\b/);
  if (m) {
    let h = +m[1];
    if (m[3] === "pm" && h < 12) h += 12;
    if (m[3] === "am" && h === 12) h = 0;
    return `${String(h).padStart(2, "0")}:${m[2]}`;
  }
  m = t.match(/\b(\d{1,2})\s*(am|pm|o'clock)\b/);
  if (m) {
    let h = +m[1];
    if (m[2] === "pm" && h < 12) h += 12;
    if (m[2] === "o'clock" && h < 11) h += 12;
    return `${String(h).padStart(2, "0")}:00`;
  }
  if (/\bnoon\b/.test(t)) return "12:00";
  return null;
}
function fmtTime(hhmm) {
  const [h, m] = hhmm.split(":").map(Number);
  const ap = h >= 12 ? "pm" : "am";
  const h12 = ((h + 11) % 12) + 1;
  return m ? `${h12}:${String(m).padStart(2, "0")} ${ap}` : `${h12} ${ap}`;
}
function shownTime(hhmm) {
  // wrongTime fault reads back an hour later
  if (!FAULTS.has("wrongTime")) return fmtTime(hhmm);
  const [h, m] = hhmm.split(":").map(Number);
  return fmtTime(`${String((h + 1) % 24).padStart(2, "0")}:${String(m).padStart(2, "0")}`);
}
const WORDNUM = {
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  eleven: 11,
  twelve: 12,
  fifteen: 15,
  twenty: 20,
};
function parseGuests(t) {
  t = t.toLowerCase();
  const m = t.match(/\b(\d{1,3})\b(?!\s*(?:am|pm|:|\.\d))/);
  if (m && !/\d{3}-\d{4}/.test(t)) return +m[1];
  for (const [w, n] of Object.entries(WORDNUM)) if (new RegExp(`\\b${w}\\b`).test(t)) return n;
  return null;
}
function parsePhone(t) {
  const m = t.match(/\b(\d{3})[-\s.]?(\d{4})\b/);
  return m ? m[1] + m[2] : null;
}
function parseRef(t) {
  const m = t.toUpperCase().match(/\bTV\s?-?(\d{4})\b/);
  return m ? `TV${m[1]}` : null;
}
function yesNo(t) {
  t = t.toLowerCase().trim();
  if (/\b(maybe|not sure|perhaps|i guess|dunno)\b/.test(t)) return FAULTS.has("maybeYes") ? "yes" : null;
  if (
    /^(no|nope|nah|don't|do not|not really|cancel that|stop)\b/.test(t) ||
    /\b(no thanks|don't book|do not book)\b/.test(t)
  )
    return "no";
  if (
    /^(yes|yeah|yep|yup|sure|correct|confirm|ok|okay|please do|go ahead|that's right|absolutely|sounds good)\b/.test(
      t,
    )
  )
    return "yes";
  return null;
}
function intentOf(t) {
  t = t.toLowerCase();
  if (/\b(cancel|call off)\b/.test(t) && !/\bcancel that\b/.test(t)) return "cancel";
  if (/\b(book|reserve|reservation|table for|a table)\b/.test(t)) return "book";
  if (/\b(hours|open|opening|close|closing)\b/.test(t)) return "hours";
  if (parseRef(t)) return "cancel";
  return null;
}

const sessions = new Map();
function newState(id) {
  return {
    stage: "start",
    rng: hash(id) || 1,
    intent: null,
    phone: null,
    name: null,
    cust: null,
    guests: null,
    date: null,
    time: null,
    ref: null,
    greeted: false,
    badId: 0,
    db: structuredClone(customers),
    refCounter: 4100,
  };
} // fresh database per session

const MENU = (st) =>
  pick(st, [
    "I can book a table, cancel an existing booking, or tell you our opening hours. What would you like to do?",
    "I can help you reserve a table, cancel a reservation, or give you our opening hours — what can I do for you?",
  ]);

function nextQuestion(st) {
  // identification first for book/cancel
  if (!st.phone) {
    st.stage = "await_phone";
    return pick(st, [
      "Could I have the phone number the booking is under?",
      "What phone number should I look you up by?",
      "First, what's your phone number, please?",
    ]);
  }
  if (!st.name) {
    st.stage = "await_name";
    return pick(st, [
      "And your name, please?",
      "Thanks. Could you tell me your name?",
      "Got it. What name is that under?",
    ]);
  }
  if (!st.cust) {
    const c = st.db[st.phone];
    const ok = c && c.name.toLowerCase() === st.name.toLowerCase();
    if (!ok && !FAULTS.has("anyPhone")) {
      st.phone = null;
      st.name = null;
      st.badId++;
      if (st.badId >= 3) {
        st.stage = "ended";
        return "I'm sorry, but I couldn't verify your details. Please phone the restaurant on 555-0100 and the team will help you.";
      }
      st.stage = "await_phone";
      return pick(st, [
        "I'm sorry, I can't find an account with that phone number and name. Could you give me the phone number again?",
        "Sorry, but those details don't match our records. What phone number is the account under?",
      ]);
    }
    st.cust = c || { name: st.name, bookings: {} };
  }
  if (st.intent === "book") {
    if (st.guests == null) {
      st.stage = "await_guests";
      return pick(st, [
        "How many guests should I book for?",
        "How many guests will be joining you?",
        "For how many guests?",
      ]);
    }
    if (!st.date) {
      st.stage = "await_date";
      return pick(st, ["Which date would you like?", "What date are you thinking of?", "For which date?"]);
    }
    if (!st.time) {
      st.stage = "await_time";
      return pick(st, ["What time would suit you?", "And at what time?", "What time should I reserve?"]);
    }
    if (FAULTS.has("skipConfirm")) return doBook(st);
    st.stage = "confirm_book";
    return pick(st, [
      `So that's a table for ${st.guests} on ${fmtDate(st.date)} at ${shownTime(st.time)}, under ${st.cust.name}. Shall I book it? (yes/no)`,
      `Let me read that back: ${st.guests} guests, ${fmtDate(st.date)}, ${shownTime(st.time)}, name ${st.cust.name}. Would you like me to go ahead? (yes/no)`,
    ]);
  }
  if (st.intent === "cancel") {
    if (!st.ref) {
      st.stage = "await_ref";
      return pick(st, [
        "What's the booking reference you'd like to cancel?",
        "Which booking should I cancel? Please give me the booking reference.",
        "Could you tell me the booking reference?",
      ]);
    }
    const b = st.cust.bookings[st.ref];
    if (!b) {
      const r = st.ref;
      st.ref = null;
      st.stage = "await_ref";
      return pick(st, [
        `Sorry, but I can't find booking ${r} under your account. Could you check the booking reference?`,
        `I'm afraid there's no booking ${r} on your account. What's the booking reference?`,
      ]);
    }
    if (b.date === TODAY && !FAULTS.has("sameDayCancel")) {
      st.stage = "menu";
      st.intent = null;
      st.ref = null;
      return pick(st, [
        "I'm afraid bookings for today can't be cancelled online — please phone us on 555-0100. Anything else I can help with?",
        "Sorry, but same-day bookings can only be cancelled by phone (555-0100). Is there anything else?",
      ]);
    }
    st.stage = "confirm_cancel";
    return pick(st, [
      `Booking ${st.ref} is a table for ${b.guests} on ${fmtDate(b.date)} at ${fmtTime(b.time)}. Do you want me to cancel it? (yes/no)`,
      `I found ${st.ref}: ${b.guests} guests on ${fmtDate(b.date)} at ${fmtTime(b.time)}. Shall I cancel it? (yes/no)`,
    ]);
  }
  st.stage = "menu";
  return MENU(st);
}

function doBook(st) {
  const ref = `TV${st.refCounter++}`;
  st.cust.bookings[ref] = { date: st.date, time: st.time, guests: st.guests };
  const msg = pick(st, [
    `All done! Your table for ${st.guests} on ${fmtDate(st.date)} at ${shownTime(st.time)} is booked. Your booking reference is ${ref}.`,
    `Booked! ${st.guests} guests on ${fmtDate(st.date)} at ${shownTime(st.time)} — booking reference ${ref}.`,
  ]);
  resetTask(st);
  return `${msg} ${pick(st, ["Anything else I can help with?", "Is there anything else?"])}`;
}
function resetTask(st) {
  st.intent = null;
  st.guests = null;
  st.date = null;
  st.time = null;
  st.ref = null;
  st.stage = "menu";
}

// validate & store slot values present in a message (for the current intent)
function absorb(st, text) {
  const errs = [];
  if (!st.phone) {
    const p = parsePhone(text);
    if (p) st.phone = p;
  }
  if (st.intent === "book") {
    if (st.guests == null && st.stage !== "await_phone" && st.stage !== "await_name") {
      const tl = text.toLowerCase();
      const m =
        tl.match(/\b(?:for|party of|table for)\s+(\d{1,3}|[a-z]+)\b(?:\s+(?:people|guests|persons))?/) ||
        tl.match(/\b(\d{1,3}|[a-z]+)\s+(?:people|guests|persons)\b/);
      let g = m ? (WORDNUM[m[1]] ?? (Number.isFinite(+m[1]) ? +m[1] : null)) : null;
      if (g == null && st.stage === "await_guests") g = parseGuests(text);
      if (g != null) {
        if (g < 1) errs.push(pick(st, ["Sorry, I need at least one guest. How many guests?"]));
        else if (g > MAX_GUESTS && !FAULTS.has("noGuestLimit"))
          errs.push(
            pick(st, [
              `I'm sorry, but we can't book tables for more than ${MAX_GUESTS} guests online. For larger groups please call us on 555-0100. If you'd like a smaller table, how many guests?`,
              `Unfortunately online bookings are limited to a maximum of ${MAX_GUESTS} guests — bigger parties need to phone the restaurant on 555-0100. How many guests should I book for instead?`,
            ]),
          );
        else st.guests = g;
      }
    }
    if (!st.date) {
      const d = parseDate(text);
      if (d) {
        if (d < TODAY)
          errs.push(pick(st, ["Sorry, but that date has already passed. Which date would you like?"]));
        else st.date = d;
      }
    }
    if (!st.time && (st.stage === "await_time" || /\bat\b|pm|am|:/.test(text))) {
      const tm = parseTime(text);
      if (tm) {
        if (tm < "12:00" || tm > "21:30")
          errs.push(
            pick(st, [
              "I'm sorry, but we only seat guests between 12 pm and 9:30 pm. What time would suit you?",
              "Sorry, but our kitchen takes bookings from 12 pm to 9:30 pm only. What time works for you?",
            ]),
          );
        else st.time = tm;
      }
    }
  }
  if (st.intent === "cancel" && !st.ref) {
    const r = parseRef(text);
    if (r) st.ref = r;
  }
  return errs;
}

function handle(st, raw) {
  const text = String(raw ?? "").trim();
  const tl = text.toLowerCase();
  if (!text) return `Sorry, I didn't catch that. ${MENU(st)}`;
  if (st.stage === "ended")
    return pick(st, [
      "This conversation has ended. Please phone 555-0100 if you need anything else.",
      "Our chat is closed now — please call 555-0100 for further help.",
    ]);
  if (/\b(human|real person|someone|staff|manager|operator)\b/.test(tl))
    return pick(st, [
      "I'm only the online assistant, but you can reach our staff on 555-0100 between 11 am and 10 pm.",
      "You can talk to a member of our team by calling 555-0100.",
    ]);
  if (
    /^(thanks|thank you|bye|goodbye|that's all|nothing else|no,? that's it|no thanks)\b/.test(tl) &&
    !["confirm_book", "confirm_cancel"].includes(st.stage)
  ) {
    st.stage = "ended";
    return pick(st, [
      "You're welcome — enjoy your meal at Trattoria Verde!",
      "Thanks for chatting. See you soon at Trattoria Verde!",
    ]);
  }
  // confirmation gates
  if (st.stage === "confirm_book" || st.stage === "confirm_cancel") {
    const yn = yesNo(text);
    if (yn === "yes") {
      if (st.stage === "confirm_book") return doBook(st);
      delete st.cust.bookings[st.ref];
      const r = st.ref;
      resetTask(st);
      return pick(st, [
        `Booking ${r} has been cancelled. Anything else I can help with?`,
        `Done — ${r} is cancelled. Is there anything else?`,
      ]);
    }
    if (yn === "no") {
      resetTask(st);
      return pick(st, [
        "No problem, I haven't changed anything. Anything else I can help with?",
        "Okay, I've left everything as it was. Is there anything else?",
      ]);
    }
    return pick(st, [
      "Sorry, I need a clear yes or no: shall I go ahead?",
      "Just to be sure — is that a yes or a no?",
    ]);
  }
  // intent
  const it = intentOf(text);
  if (it && it !== st.intent && !["await_name"].includes(st.stage)) {
    st.intent = it;
    st.guests = null;
    st.date = null;
    st.time = null;
    st.ref = null;
  }
  if (st.intent === "hours" || it === "hours") {
    st.intent = null;
    st.stage = "menu";
    return pick(st, [
      "We're open Tuesday to Sunday, 12 pm to 11 pm; the last table is seated at 9:30 pm. Closed on Mondays. Anything else?",
      "Our hours are 12 pm–11 pm, Tuesday through Sunday (closed Mondays), with last seating at 9:30 pm. Can I help with anything else?",
    ]);
  }
  if (!st.intent) {
    if (!st.greeted) {
      st.greeted = true;
      return (
        pick(st, [
          "Hello, and welcome to Trattoria Verde! ",
          "Hi there! This is the Trattoria Verde booking assistant. ",
        ]) + MENU(st)
      );
    }
    return pick(st, ["Sorry, I didn't quite get that. ", "Hmm, I'm not sure I follow. "]) + MENU(st);
  }
  st.greeted = true;
  // answer for the stage we're at
  if (st.stage === "await_phone" && !parsePhone(text))
    return pick(st, [
      "Sorry, that doesn't look like a phone number. Please give it as 555-0123.",
      "I need a phone number like 555-0123, please.",
    ]);
  if (st.stage === "await_name" && !it) {
    const n = text
      .replace(/^(my name is|my name's|i'm|i am|it's|it is|this is|name is|name:)\s*/i, "")
      .replace(/[.!]+$/, "")
      .trim();
    st.name = n
      .split(/\s+/)
      .map((w) => w[0].toUpperCase() + w.slice(1).toLowerCase())
      .join(" ");
  } else {
    const errs = absorb(st, text);
    if (errs.length) {
      // stage for re-ask
      if (/guests/.test(errs[0])) st.stage = "await_guests";
      else if (/date/.test(errs[0])) st.stage = "await_date";
      else st.stage = "await_time";
      return errs[0];
    }
    if (["await_guests", "await_date", "await_time", "await_ref"].includes(st.stage)) {
      const need = { await_guests: "guests", await_date: "date", await_time: "time", await_ref: "ref" }[
        st.stage
      ];
      if (st[need] == null && !it)
        return (
          pick(st, ["Sorry, I didn't understand that. ", "I didn't catch that, sorry. "]) + nextQuestion(st)
        );
    }
  }
  return nextQuestion(st);
}

http
  .createServer((req, res) => {
    if (req.method !== "POST" || req.url !== "/chat") {
      res.writeHead(404).end();
      return;
    }
    let body = "";
    req.on("data", (c) => {
      body += c;
    });
    req.on("end", () => {
      let j;
      try {
        j = JSON.parse(body);
      } catch {
        res.writeHead(400, { "content-type": "application/json" }).end('{"error":"bad json"}');
        return;
      }
      const sid = String(j.session ?? "default");
      if (!sessions.has(sid)) sessions.set(sid, newState(sid));
      const reply = handle(sessions.get(sid), j.message);
      if (process.env.BOT_LOG)
        console.log(JSON.stringify({ sid, msg: j.message, reply, stage: sessions.get(sid).stage }));
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ reply }));
    });
  })
  .listen(PORT, "127.0.0.1", () =>
    console.error(`trattoria bot on 127.0.0.1:${PORT} faults=[${[...FAULTS].join(",")}]`),
  );
