/**
 * Held-out testbed agent 9: a veterinary practice assistant ("Willowbank Vets"). Identification is the owner's
 * mobile number then the name of one of their pets (a postcode check is added for prescriptions, contact changes
 * and insurance claims); three failed checks lock the conversation. Tasks about a pet ask which pet from a
 * numbered list when the owner has several. Writes are confirmed through a numbered menu (1 Confirm / 2 Change
 * something / 3 Cancel), and a late cancellation also needs the fee accepted in words.
 *
 * Session model: `create()` builds a fresh practice database. `reset()` starts a new conversation AND restores
 * the database to its seeded state, so every conversation is independent (writes persist only for the later
 * turns of the same conversation); the fingerprint and the visited states are per conversation as well.
 */
import * as D from "./heldout9-data.ts";
import type { TestbedAgent, TestbedTarget } from "./testbed.ts";

const STATES =
  `general.menu general.smalltalk general.out_of_scope general.fallback general.human_handoff general.goodbye
info.hours info.prices info.vaccine_schedule emergency.handoff
auth.ask_mobile auth.mobile_not_found auth.ask_pet auth.pet_mismatch auth.ask_postcode auth.postcode_mismatch auth.verified auth.locked
pet.choose pet.not_yours
book.ask_type book.ask_vet book.ask_date book.offer_slots book.refused_preop book.confirm_menu book.change_what book.done book.already_booked
sched.closed_day sched.no_slots sched.refused_nurse_weekend sched.refused_weekly_cap sched.refused_too_young appt.none
move.choose_appt move.ask_date move.offer_slots move.confirm_menu move.done
cancel.choose_appt cancel.confirm_menu cancel.fee_accept cancel.done cancel.kept
rx.none rx.choose_med rx.refused_controlled rx.refused_too_early rx.refused_no_repeats rx.ask_collection rx.confirm_menu rx.done
vacc.record vacc.none contact.ask_field contact.ask_value contact.confirm_menu contact.done
reg.ask_name reg.ask_species reg.ask_breed reg.ask_dob reg.confirm_menu reg.change_what reg.done
claim.status claim.none flow.abandoned menu.reprompt`.split(/\s+/);

const FAULT_IDS = `contact_skip_confirm vacc_record_no_id vacc_age_ignored rx_ignore_28_days weekly_cap_ignored other_owner_pet no_lockout emergency_booked rx_controlled_allowed dental_preop_ignored claim_skip_postcode late_fee_amount late_window_12h booster_365_days rx_next_date_off reg_dob_swapped change_forgotten summary_cancel_writes double_booking summary_wrong_vet summary_drops_price confirm_wrong_pet`;
export const HELDOUT9_FAULTS: readonly string[] = FAULT_IDS.split(" ");

// ------------------------------------------------------------------ conversation model

type Field = "mobile" | "email" | "postcode";
type Offer = { time: string; vet: D.VetId };
type Slots = { type?: D.ApptType; vet?: D.VetId | "any"; date?: string; time?: string };
type Refs = {
  petId?: string;
  petName?: string;
  medName?: string;
  apptId?: string;
  medId?: string;
  options?: string[];
};
type NewPet = { name?: string; species?: string; breed?: string; dob?: string };
type Task = Slots &
  Refs &
  NewPet & { kind: D.Kind; offers?: Offer[]; original?: Slots } & {
    collect?: "collect" | "post";
    field?: Field;
    value?: string;
  };
class Conv {
  expect: string | null = null;
  task: Task | null = null;
  candidate: string | null = null;
  ownerId: string | null = null;
  postcodeOk = false;
  failures = 0;
  locked = false;
  lastBooked: { ref: string; task: Task } | null = null;
}

const NEEDS_PET = new Set<D.Kind>(["book", "rx", "vacc", "claim"]);
const SENSITIVE = new Set<D.Kind>(["rx", "contact", "claim"]);
const CONFIRMS = ["book", "move", "rx", "contact", "reg"].map((k) => `${k}.confirm_menu`);
const validDate = (d: string | null): d is string =>
  d !== null && D.dn(d) > D.TODAY_N && D.dn(d) <= D.TODAY_N + 92;

class VetTarget implements TestbedTarget {
  readonly name = "heldout9";
  private db: D.Db = D.seedDb();
  private c: Conv = new Conv();
  private visited: string[] = [];
  private log: string[] = [];
  private out: string[] = [];
  private turn = 0;

  constructor(
    private readonly faults: ReadonlySet<string>,
    private readonly seed: number,
  ) {}

  async reset() {
    this.db = D.seedDb();
    this.c = new Conv();
    this.visited = [];
    this.log = [];
    this.turn = 0;
  }
  async send(text: string) {
    const t0 = performance.now();
    this.out = [];
    this.turn++;
    this.handle(D.norm(text));
    return { text: this.out.join(" "), ms: performance.now() - t0 };
  }
  async close() {}
  statesVisited(): readonly string[] {
    return [...this.visited];
  }
  fingerprint(): string {
    return this.log.join("\n");
  }

  // ---------------------------------------------------------------- small helpers

  private f(id: string): boolean {
    return this.faults.has(id);
  }
  private say(kind: string, v: D.V = {}) {
    const list = D.T[kind]!;
    const i = (this.seed * 7 + this.turn * 3 + D.hash(kind)) % list.length;
    this.out.push(D.render(list[i]!, v, i % 3));
  }
  /** Enter a state and say a reply. */
  private emit(state: string, v: D.V = {}) {
    this.visited.push(state);
    this.say(state, v);
  }
  /** Finish the current task with a reply. */
  private end(state: string, v: D.V = {}) {
    this.clear();
    this.emit(state, v);
  }
  private clear() {
    this.c.task = null;
    this.c.expect = null;
  }
  /** The pending question was answered: carry on with the task. */
  private go(): boolean {
    this.c.expect = null;
    this.advance();
    return true;
  }
  /** Say a short remark and ask the same question again. */
  private redo(kind: string, ex: string, v: D.V = {}): boolean {
    this.say(kind, v);
    this.ask(ex);
    return true;
  }
  private pet(id: string | undefined): D.Pet {
    return this.db.pets.find((p) => p.id === id)!;
  }
  private appt(id: string | undefined): D.Appt {
    return this.db.appts.find((a) => a.id === id)!;
  }
  private med(task: Task): D.Med {
    return this.db.meds.find((m) => m.id === task.medId)!;
  }
  private owner() {
    return this.db.owners.find((o) => o.id === this.c.ownerId)!;
  }
  private ownPets(): D.Pet[] {
    return this.db.pets.filter((p) => p.ownerId === this.c.ownerId);
  }
  private findPet(t: string): D.Pet | undefined {
    const tw = D.words(t);
    return [...this.ownPets(), ...this.db.pets].find((p) => tw.some((w) => D.near(w, p.name.toLowerCase())));
  }
  private upcoming(petId?: string): D.Appt[] {
    const mine = new Set(petId ? [petId] : this.ownPets().map((p) => p.id));
    return this.db.appts
      .filter((a) => a.status === "booked" && mine.has(a.petId) && D.dn(a.date) >= D.TODAY_N)
      .sort((a, b) => (a.date + a.time).localeCompare(b.date + b.time));
  }
  private apptLabel(a: D.Appt): string {
    const when = `${D.fmtDate(a.date, this.seed % 3)} at ${a.time}`;
    return `${this.pet(a.petId).name} — ${D.typeLabel(a.type)}, ${when} (${D.vetName(a.vet)})`;
  }
  private rxReady(task: Task): string {
    return D.addWorkingDays(D.TODAY, task.collect === "post" ? 3 : 2);
  }
  private feeFor(a: D.Appt): string {
    const minutes = Number(a.time.slice(0, 2)) * 60 + Number(a.time.slice(3));
    const hours = (D.dn(a.date) - D.TODAY_N) * 24 + minutes / 60 - D.NOW_HOUR;
    if (hours >= (this.f("late_window_12h") ? 12 : 24)) return "0";
    return this.f("late_fee_amount") ? "35" : "25";
  }

  // ---------------------------------------------------------------- turn handling

  private handle(t: string) {
    const lastBooked = this.c.lastBooked;
    this.c.lastBooked = null;
    if (!t) return this.emit("general.fallback");
    const suppressed = this.f("emergency_booked") && (D.BOOK_RE.test(t) || this.c.task?.kind === "book");
    if (D.EMERGENCY_RE.test(t) && !suppressed)
      return this.end("emergency.handoff", { phone: D.EMERGENCY_PHONE });
    if (D.GOODBYE_RE.test(t)) return this.end("general.goodbye");
    if (D.HUMAN_RE.test(t)) return this.end("general.human_handoff", { phone: D.RECEPTION_PHONE });
    if (lastBooked && !this.c.expect && D.parseMenu(t) === 1) {
      if (!this.f("double_booking")) return this.emit("book.already_booked", { ref: lastBooked.ref });
      return this.commitBooking(lastBooked.task);
    }
    const ex = this.c.expect;
    if (ex) {
      const menuLike = CONFIRMS.includes(ex) || ex.startsWith("cancel.");
      if (D.ABANDON_RE.test(t) && !menuLike && !/appointment|booking/.test(t))
        return this.end("flow.abandoned");
      if (this.answer(ex, t)) return;
    }
    const intent = D.detectIntent(t);
    if (intent) return this.dispatch(intent, t);
    if (ex) return this.redo("sorry", ex);
    this.emit("general.fallback");
  }

  private dispatch(intent: D.Intent, t: string) {
    const ex = this.c.expect;
    const resume = () => {
      if (ex && this.c.task) {
        this.say("back_to");
        this.ask(ex);
      }
    };
    switch (intent) {
      case "hours":
        this.emit("info.hours", { phone: D.EMERGENCY_PHONE });
        return resume();
      case "prices": {
        const prices = Object.fromEntries(D.APPT_TYPES.map((a) => [a.id, a.price]));
        this.emit("info.prices", { ...prices, fee: "25" });
        return resume();
      }
      case "smalltalk":
        this.emit("general.smalltalk");
        return resume();
      case "oos":
        this.emit("general.out_of_scope");
        return resume();
      case "menu":
        this.clear();
        return this.ask("general.menu");
      case "vacc": {
        const p = this.findPet(t);
        if (!this.c.ownerId && p && this.f("vacc_record_no_id")) {
          this.clear();
          return this.showVacc(p);
        }
        if (this.c.ownerId || p || /record|history/.test(t)) return this.startTask("vacc", t);
        this.emit("info.vaccine_schedule");
        return resume();
      }
      default:
        return this.startTask(intent, t);
    }
  }

  private startTask(kind: D.Kind, t: string) {
    this.clear();
    const task: Task = { kind };
    const p = kind === "reg" || kind === "contact" ? undefined : this.findPet(t);
    if (p) task.petName = p.name;
    if (kind === "book") {
      task.type = D.parseType(t) ?? undefined;
      task.vet = D.parseVet(t) ?? undefined;
    }
    const d = kind === "book" || kind === "move" ? D.parseDate(t, "future") : null;
    if (validDate(d)) task.date = d;
    if (kind === "rx") task.medName = t.match(D.MED_RE)?.[0];
    const sp = kind === "reg" ? t.match(/\b(puppy|dog|kitten|cat|rabbit|bunny)\b/)?.[1] : undefined;
    if (sp) task.species = D.SPECIES_ALIAS[sp] ?? sp;
    if (kind === "contact") task.field = D.parseField(t) ?? undefined;
    this.c.task = task;
    if (D.parseMobile(t) && !this.c.ownerId && !this.c.candidate && !this.c.locked) {
      this.answer("auth.ask_mobile", t);
      return;
    }
    this.advance();
  }

  /** Ask the next missing thing for the current task, or act on it. */
  private advance() {
    const task = this.c.task;
    if (!task) return;
    if (this.c.locked) return this.end("auth.locked", { phone: D.RECEPTION_PHONE });
    if (!this.c.ownerId) return this.ask(this.c.candidate ? "auth.ask_pet" : "auth.ask_mobile");
    const skipPc = task.kind === "claim" && this.f("claim_skip_postcode");
    if (SENSITIVE.has(task.kind) && !this.c.postcodeOk && !skipPc) return this.ask("auth.ask_postcode");
    if ((NEEDS_PET.has(task.kind) || task.petName) && !task.petId && !this.resolvePet(task)) return;
    switch (task.kind) {
      case "book":
        return this.stepBook(task);
      case "move":
      case "cancel":
        return this.stepAppt(task);
      case "rx":
        return this.stepRx(task);
      case "vacc":
        this.clear();
        return this.showVacc(this.pet(task.petId));
      case "contact":
        if (!task.field) return this.ask("contact.ask_field");
        if (!task.value) return this.ask("contact.ask_value");
        return this.f("contact_skip_confirm") ? this.commitContact(task) : this.ask("contact.confirm_menu");
      case "reg": {
        const missing = (["name", "species", "breed", "dob"] as const).find((k) => !task[k]);
        return this.ask(missing ? `reg.ask_${missing}` : "reg.confirm_menu");
      }
      case "claim":
        return this.showClaim(task);
    }
  }

  private resolvePet(task: Task): boolean {
    const own = this.ownPets();
    const named = task.petName ? this.db.pets.find((x) => x.name === task.petName) : undefined;
    task.petName = undefined;
    if (named && (named.ownerId === this.c.ownerId || this.f("other_owner_pet"))) {
      task.petId = named.id;
      return true;
    }
    if (named) this.emit("pet.not_yours", { pet: named.name });
    if (!NEEDS_PET.has(task.kind)) return true;
    const byMed = own.filter((p) =>
      this.db.meds.some(
        (m) => m.petId === p.id && !!task.medName && m.name.toLowerCase().includes(task.medName),
      ),
    );
    if (byMed.length === 1 || (own.length === 1 && !named)) {
      task.petId = (byMed[0] ?? own[0])!.id;
      return true;
    }
    this.ask("pet.choose");
    return false;
  }

  // ---------------------------------------------------------------- questions

  private ask(state: string) {
    this.c.expect = state;
    if (state === "book.offer_slots" || state === "move.offer_slots") return this.offerSlots(state);
    this.emit(state, this.vars(state));
  }

  /** The values a question's template may use. */
  private vars(state: string): D.V {
    const t = this.c.task;
    if (!t) return { list: D.MENU_ITEMS };
    const pet = t.petId ? this.pet(t.petId).name : "";
    const v: D.V = { menu: D.MENU3, pet, type: D.typeLabel(t.type), vet: D.vetName(t.vet) };
    for (const k of ["date", "time", "name", "species", "breed", "dob", "value"] as const) v[k] = t[k] ?? "";
    if (t.field && this.c.ownerId)
      Object.assign(v, { field: D.FIELD_LABEL[t.field], old: this.owner()[t.field] });
    if (t.apptId) {
      const a = this.appt(t.apptId);
      const [from, fromTime] = [a.date, a.time];
      Object.assign(v, { pet: this.pet(a.petId).name, type: D.typeLabel(a.type), from, fromTime });
      if (state.startsWith("cancel."))
        Object.assign(v, { date: a.date, time: a.time, fee: this.feeFor(a), menu: D.CANCEL_MENU });
    }
    if (t.medId) {
      const m = this.med(t);
      const post = t.collect === "post" ? "1" : "";
      Object.assign(v, { med: m.name, ready: this.rxReady(t), post, postage: D.POSTAGE });
    }
    const lists: Record<string, () => string> = {
      "pet.choose": () =>
        this.ownPets()
          .map((p) => `${p.name} (${p.species})`)
          .join("|"),
      "book.ask_type": () => D.APPT_TYPES.map((a) => a.label).join("|"),
      "book.ask_vet": () => [...D.DOCTORS.map(D.vetName), "Any vet"].join("|"),
      "move.choose_appt": () => this.listAppts(t),
      "cancel.choose_appt": () => this.listAppts(t),
      "rx.choose_med": () => {
        const meds = this.db.meds.filter((m) => m.petId === t.petId);
        t.options = meds.map((m) => m.id);
        this.log.push(`R:meds ${meds.map((m) => `${m.id}:${m.repeatsLeft}`).join(",")}`);
        return meds.map((m) => `${m.name} (${m.repeatsLeft} repeats left)`).join("|");
      },
    };
    const list = lists[state]?.() ?? D.FIXED_LISTS[state];
    if (list) Object.assign(v, { list, count: String(this.ownPets().length) });
    if (state === "book.confirm_menu") {
      if (this.f("summary_wrong_vet"))
        v.vet = D.vetName(D.DOCTORS[(D.DOCTORS.indexOf(t.vet as D.VetId) + 1) % 3]);
      v.type = D.cap(v.type!);
      v.price = this.f("summary_drops_price") ? "" : D.priceOf(t.type);
    }
    return v;
  }

  private listAppts(t: Task): string {
    const list = this.upcoming(t.petId);
    t.options = list.map((a) => a.id);
    this.log.push(`R:appts ${t.options.join(",")}`);
    return list.map((a) => this.apptLabel(a)).join("|");
  }

  // ---------------------------------------------------------------- answers to the pending question

  private answer(ex: string, t: string): boolean {
    const task = this.c.task!;
    if (CONFIRMS.includes(ex) || ex === "cancel.confirm_menu") {
      let m = D.parseMenu(t);
      if (ex === "cancel.confirm_menu" && D.parseNumber(t, 3) === null) {
        if (/\bkeep\b|don'?t cancel|do not cancel|leave it/.test(t)) m = 3;
        else if (/\b(change|different|another|other|wrong)\b/.test(t)) m = 2;
        else if (/\b(cancel|confirm|go ahead|proceed)\b/.test(t)) m = 1;
      }
      if (m !== null) return this.onMenu(ex, m, t);
      if (!D.YESNO_RE.test(t)) return false;
      this.emit("menu.reprompt", {
        menu: ex === "cancel.confirm_menu" ? D.CANCEL_MENU : D.MENU3,
      });
      return true;
    }
    switch (ex) {
      case "general.menu": {
        const i = D.parseNumber(t, 9);
        const k = i === null ? null : D.MENU_KINDS[i - 1]!;
        if (k === "hours") this.dispatch("hours", t);
        else if (k) this.startTask(k, "");
        return k !== null;
      }
      case "auth.ask_mobile": {
        const mob = D.parseMobile(t);
        if (!mob) return /\d{5,}/.test(t.replace(/[\s-]/g, "")) ? this.redo("mobile_invalid", ex) : false;
        const o = this.db.owners.find((x) => x.mobile === mob);
        if (!o) return this.fail("auth.mobile_not_found", ex);
        this.c.candidate = o.id;
        this.ask("auth.ask_pet");
        return true;
      }
      case "auth.ask_pet": {
        const own = this.db.pets.filter((p) => p.ownerId === this.c.candidate);
        const tw = D.words(t);
        if (!own.some((p) => tw.some((w) => D.near(w, p.name.toLowerCase())))) {
          return tw.length > 3 && D.detectIntent(t) ? false : this.fail("auth.pet_mismatch", ex);
        }
        this.c.ownerId = this.c.candidate;
        this.emit("auth.verified", { owner: this.owner().name.split(" ")[0]! });
        return this.go();
      }
      case "auth.ask_postcode": {
        const pc = D.parsePostcode(t);
        if (!pc) return /\d/.test(t) && t.length <= 14 ? this.redo("postcode_invalid", ex) : false;
        if (pc.replace(" ", "") !== this.owner().postcode.replace(" ", ""))
          return this.fail("auth.postcode_mismatch", ex);
        this.c.postcodeOk = true;
        return this.go();
      }
      case "pet.choose": {
        const own = this.ownPets();
        let i = D.parseChoice(
          t,
          own.map((p) => p.name),
        );
        const bySpecies = own.flatMap((p, k) => (new RegExp(`\\b${p.species}\\b`).test(t) ? [k] : []));
        if (i === null && bySpecies.length === 1) i = bySpecies[0]!;
        const other = i === null ? this.findPet(t) : undefined;
        if (i === null && !other) return false;
        if (i === null && !this.f("other_owner_pet")) {
          this.emit("pet.not_yours", { pet: other!.name });
          this.ask(ex);
          return true;
        }
        task.petId = i === null ? other!.id : own[i]!.id;
        return this.go();
      }
      case "book.ask_type": {
        const i = D.parseChoice(
          t,
          D.APPT_TYPES.map((a) => a.label),
        );
        const ty = D.parseType(t) ?? (i === null ? null : D.APPT_TYPES[i]!.id);
        if (!ty) return false;
        this.setType(task, ty);
        return this.go();
      }
      case "book.ask_vet": {
        const i = D.parseNumber(t, 4);
        const v = D.parseVet(t) ?? (i === null ? null : i === 4 ? "any" : D.DOCTORS[i - 1]!);
        if (!v) return false;
        task.vet = v;
        task.time = undefined;
        return this.go();
      }
      case "book.ask_date":
      case "move.ask_date":
        return this.takeDate(task, t, ex);
      case "book.offer_slots":
      case "move.offer_slots": {
        const offers = task.offers ?? [];
        const tm = D.parseTime(t);
        const vet = D.parseVet(t);
        let i = D.parseNumber(t, offers.length);
        if (i === null && tm) {
          i = offers.findIndex((o) => o.time === tm && (!vet || vet === "any" || vet === o.vet)) + 1;
          if (i === 0) return this.redo("slot_taken", ex);
        }
        if (i === null)
          return D.parseDate(t, "future")
            ? this.takeDate(task, t, ex.replace("offer_slots", "ask_date"))
            : false;
        task.time = offers[i - 1]!.time;
        task.vet = offers[i - 1]!.vet;
        return this.go();
      }
      case "book.change_what":
        return this.applyBookChange(task, t);
      case "move.choose_appt":
      case "cancel.choose_appt": {
        const appts = (task.options ?? []).map((id) => this.appt(id));
        let i = D.parseChoice(
          t,
          appts.map((a) => this.apptLabel(a)),
        );
        const d = D.parseDate(t, "future");
        if (i === null && d && appts.some((a) => a.date === d)) i = appts.findIndex((a) => a.date === d);
        const p = this.findPet(t);
        const ofPet = appts.filter((a) => a.petId === p?.id);
        if (i === null && ofPet.length === 1) i = appts.indexOf(ofPet[0]!);
        if (i === null) return false;
        task.apptId = appts[i]!.id;
        return this.go();
      }
      case "cancel.fee_accept": {
        const negated = /\b(don'?t|do not|not|won'?t|refuse)\b/.test(t);
        if (/\b(accept|agree|happy to pay|fine to pay|ok to pay|i'?ll pay)\b/.test(t) && !negated) {
          this.commitCancel(this.appt(task.apptId));
          return true;
        }
        if (/^(no|nope|nah)\b|\b(don'?t|do not|refuse|won'?t|keep)\b/.test(t)) {
          this.end("cancel.kept");
          return true;
        }
        return D.YESNO_RE.test(t) || D.parseNumber(t, 3) !== null ? this.redo("fee_explicit", ex) : false;
      }
      case "rx.choose_med": {
        const meds = (task.options ?? []).map((id) => this.db.meds.find((m) => m.id === id)!);
        const i = D.parseChoice(
          t,
          meds.map((m) => m.name),
        );
        if (i === null) return false;
        task.medId = meds[i]!.id;
        return this.go();
      }
      case "rx.ask_collection": {
        const i = D.parseNumber(t, 2);
        if (i === 1 || /collect|pick (it )?up|reception|come in/.test(t)) task.collect = "collect";
        else if (i === 2 || /\bpost|mail|deliver|send/.test(t)) task.collect = "post";
        else return false;
        return this.go();
      }
      case "contact.ask_field": {
        const i = D.parseNumber(t, 3);
        const fld = i ? (["mobile", "email", "postcode"] as const)[i - 1]! : D.parseField(t);
        if (!fld) return false;
        task.field = fld;
        return this.go();
      }
      case "contact.ask_value": {
        const fld = task.field!;
        const val =
          fld === "mobile" ? D.parseMobile(t) : fld === "email" ? D.parseEmail(t) : D.parsePostcode(t);
        const taken =
          fld === "mobile" && this.db.owners.some((o) => o.mobile === val && o.id !== this.c.ownerId);
        if (val && !taken) {
          task.value = val;
          return this.go();
        }
        if (D.detectIntent(t) && !/\d|@/.test(t)) return false;
        return this.redo("contact_invalid", ex, { field: D.FIELD_LABEL[fld] });
      }
      case "reg.ask_name":
      case "reg.ask_breed": {
        const val = ex === "reg.ask_name" ? D.parseName(t) : D.parseBreed(t);
        if (!val || (D.words(t).length > 3 && D.detectIntent(t))) return false;
        task[ex === "reg.ask_name" ? "name" : "breed"] = val;
        return this.go();
      }
      case "reg.ask_species": {
        const i = D.parseNumber(t, 4);
        const sp = i
          ? D.SPECIES[i - 1]
          : t.match(/\b(dog|puppy|cat|kitten|rabbit|bunny|other|guinea pig|hamster|ferret)\b/)?.[1];
        if (!sp) return false;
        task.species = D.SPECIES_ALIAS[sp] ?? (D.SPECIES.includes(sp) ? sp : "other");
        return this.go();
      }
      case "reg.ask_dob": {
        let d = D.parseDate(t, "past", this.f("reg_dob_swapped"));
        const age = t.match(/\b(\d{1,2}) (week|month|year)s? old\b/);
        if (!d && age)
          d = D.isoOf(D.TODAY_N - Number(age[1]) * { week: 7, month: 30, year: 365 }[age[2] as "week"]);
        if (!d) return false;
        if (D.dn(d) > D.TODAY_N || D.dn(d) < D.TODAY_N - 30 * 365) return this.redo("dob_invalid", ex);
        task.dob = d;
        return this.go();
      }
      case "reg.change_what": {
        const k =
          D.parseNumber(t, 4) ??
          [/name/, /species|animal|kind/, /breed/, /birth|dob|born|age/].findIndex((re) => re.test(t)) + 1;
        if (!k) return false;
        task[(["name", "species", "breed", "dob"] as const)[k - 1]!] = undefined;
        return this.go();
      }
    }
    return false;
  }

  private fail(state: string, ex: string): boolean {
    this.c.failures++;
    if (this.c.failures >= 3 && !this.f("no_lockout")) {
      this.c.locked = true;
      this.c.candidate = null;
      this.end("auth.locked", { phone: D.RECEPTION_PHONE });
      return true;
    }
    this.emit(state, { left: String(Math.max(1, 3 - this.c.failures)) });
    this.c.expect = ex;
    return true;
  }

  /** A numbered-menu choice at a summary. */
  private onMenu(ex: string, m: 1 | 2 | 3, t: string): boolean {
    const task = this.c.task!;
    if (m === 3) {
      if (ex === "cancel.confirm_menu") this.end("cancel.kept");
      else {
        if (ex === "book.confirm_menu" && this.f("summary_cancel_writes")) this.writeBooking(task);
        this.end("flow.abandoned");
      }
      return true;
    }
    if (m === 1) {
      if (ex === "book.confirm_menu") this.commitBooking(task);
      else if (ex === "move.confirm_menu") this.commitMove(task);
      else if (ex === "rx.confirm_menu") this.commitRx(task);
      else if (ex === "contact.confirm_menu") this.commitContact(task);
      else if (ex === "reg.confirm_menu") this.commitReg(task);
      else if (this.feeFor(this.appt(task.apptId)) !== "0") this.ask("cancel.fee_accept");
      else this.commitCancel(this.appt(task.apptId));
      return true;
    }
    if (ex === "book.confirm_menu") {
      task.original ??= { type: task.type, vet: task.vet, date: task.date, time: task.time };
      if (/\b(type|kind|vet|doctor|dr|date|day|time|slot)\b/.test(t)) return this.applyBookChange(task, t);
      this.ask("book.change_what");
    } else if (ex === "move.confirm_menu") {
      task.date = undefined;
      task.time = undefined;
      this.ask("move.ask_date");
    } else if (ex === "cancel.confirm_menu") {
      task.apptId = undefined;
      this.ask(this.upcoming().length > 1 ? "cancel.choose_appt" : "cancel.confirm_menu");
    } else if (ex === "rx.confirm_menu") {
      task.collect = undefined;
      this.ask("rx.ask_collection");
    } else if (ex === "contact.confirm_menu") {
      task.value = undefined;
      this.ask("contact.ask_value");
    } else this.ask("reg.change_what");
    return true;
  }

  // ---------------------------------------------------------------- booking and moving

  private setType(task: Task, ty: D.ApptType) {
    const wasNurse = task.type === "nurse";
    task.type = ty;
    if (ty === "nurse") task.vet = "reed";
    else if (wasNurse || task.vet === "reed") task.vet = undefined;
    if (wasNurse !== (ty === "nurse")) task.time = undefined;
  }

  private applyBookChange(task: Task, t: string): boolean {
    const byWord = [/\b(type|kind)\b/, /\b(vet|doctor|dr)\b/, /\b(date|day)\b/, /\b(time|slot)\b/].findIndex(
      (re) => re.test(t),
    );
    const byValue = [D.parseType(t), D.parseVet(t), D.parseDate(t, "future"), D.parseTime(t)].findIndex(
      (x) => x !== null,
    );
    const k = D.parseNumber(t, 4) ?? (byWord >= 0 ? byWord + 1 : byValue >= 0 ? byValue + 1 : null);
    if (k === null) return false;
    if (k === 1) {
      const ty = D.parseType(t);
      if (ty) this.setType(task, ty);
      else task.type = undefined;
    } else if (k === 2) {
      task.vet = D.parseVet(t) ?? undefined;
      task.time = undefined;
    } else if (k === 3) {
      const d = D.parseDate(t, "future");
      task.date = validDate(d) ? d : undefined;
      task.time = undefined;
    } else {
      const tm = D.parseTime(t);
      const vet = task.vet as D.VetId;
      task.time = tm && task.date && this.slotsFor(task.date, vet).includes(tm) ? tm : undefined;
    }
    return this.go();
  }

  private takeDate(task: Task, t: string, ex: string): boolean {
    const d = D.parseDate(t, "future");
    if (!d) return false;
    if (!validDate(d)) return this.redo(D.dn(d) <= D.TODAY_N ? "date_past" : "date_far", ex);
    task.date = d;
    task.time = undefined;
    return this.go();
  }

  /** Date rules shared by booking and moving; on a refusal the date is dropped and another is expected. */
  private schedRefused(task: Task, pet: D.Pet, dateState: string): boolean {
    const d = task.date!;
    const refuse = (state: string, v: D.V = {}): boolean => {
      this.emit(state, { date: d, pet: pet.name, ...v });
      task.date = undefined;
      task.time = undefined;
      this.c.expect = dateState;
      return true;
    };
    if (D.dowOf(d) === 0) return refuse("sched.closed_day");
    if (task.type === "nurse" && D.dowOf(d) === 6) return refuse("sched.refused_nurse_weekend");
    if (task.type === "vaccination" && D.dn(d) - D.dn(pet.dob) < 56 && !this.f("vacc_age_ignored"))
      return refuse("sched.refused_too_young", { earliest: D.isoOf(D.dn(pet.dob) + 56) });
    const week = D.weekStart(d);
    const inWeek = this.db.appts.filter(
      (a) =>
        a.petId === pet.id && a.status === "booked" && a.id !== task.apptId && D.weekStart(a.date) === week,
    );
    if (inWeek.length >= 2 && !this.f("weekly_cap_ignored"))
      return refuse("sched.refused_weekly_cap", { week });
    return false;
  }

  private preopOk(pet: D.Pet, date: string): boolean {
    const booked = this.db.appts.filter(
      (a) => a.petId === pet.id && a.status === "booked" && a.type === "checkup",
    );
    const checks = [pet.lastCheckup, ...booked.map((a) => a.date)];
    return checks.some((c) => c !== undefined && D.dn(c) < D.dn(date) && D.dn(date) - D.dn(c) <= 30);
  }

  private stepBook(task: Task) {
    const pet = this.pet(task.petId);
    if (!task.type) return this.ask("book.ask_type");
    if (task.type === "nurse") task.vet = "reed";
    if (!task.vet) return this.ask("book.ask_vet");
    if (!task.date) return this.ask("book.ask_date");
    if (this.schedRefused(task, pet, "book.ask_date")) return;
    if (task.type === "dental" && !this.preopOk(pet, task.date) && !this.f("dental_preop_ignored"))
      return this.end("book.refused_preop", { pet: pet.name, last: pet.lastCheckup ?? "" });
    this.ask(task.time ? "book.confirm_menu" : "book.offer_slots");
  }

  private slotsFor(date: string, vet: D.VetId, ignore?: string): string[] {
    const w = D.dowOf(date);
    if (!D.VETS.find((v) => v.id === vet)?.days.includes(w)) return [];
    const base =
      vet === "reed" ? (w >= 1 && w <= 5 ? D.NURSE_TIMES : []) : w === 6 ? D.SATURDAY_TIMES : D.WEEKDAY_TIMES;
    const busy = this.db.appts.filter(
      (a) => a.status === "booked" && a.vet === vet && a.date === date && a.id !== ignore,
    );
    return base.filter((tm) => !busy.some((a) => a.time === tm) && D.hash(`${date}|${vet}|${tm}`) % 3 !== 0);
  }

  private offerSlots(state: string) {
    const task = this.c.task!;
    const date = task.date!;
    const any = task.vet === "any";
    const vets: D.VetId[] = any ? D.DOCTORS : [task.vet as D.VetId];
    const offers = vets
      .flatMap((v) => this.slotsFor(date, v, task.apptId).map((time) => ({ time, vet: v })))
      .sort((a, b) => a.time.localeCompare(b.time))
      .filter((o, i, all) => i === 0 || all[i - 1]!.time !== o.time)
      .slice(0, 4);
    const vet = any ? "" : D.vetName(task.vet);
    if (!offers.length) {
      this.emit("sched.no_slots", { date, vet });
      task.date = undefined;
      this.c.expect = state.replace("offer_slots", "ask_date");
      return;
    }
    task.offers = offers;
    this.log.push(`R:slots ${date} ${offers.map((o) => `${o.time}/${o.vet}`).join(",")}`);
    const list = offers.map((o) => (any ? `${o.time} with ${D.vetName(o.vet)}` : o.time)).join("|");
    this.emit(state, { date, vet, list });
  }

  private writeBooking(task: Task): D.Appt {
    const src = this.f("change_forgotten") && task.original ? { ...task, ...task.original } : task;
    const id = `APT-0${this.db.nextRef++}`;
    const a: D.Appt = {
      id,
      petId: task.petId!,
      type: src.type!,
      vet: src.vet as D.VetId,
      date: src.date!,
      time: src.time!,
      status: "booked",
    };
    this.db.appts.push(a);
    this.log.push(`W:book ${a.id} ${a.petId} ${a.type} ${a.vet} ${a.date} ${a.time} ${D.priceOf(a.type)}`);
    return a;
  }

  private commitBooking(task: Task) {
    const a = this.writeBooking(task);
    let pet = this.pet(a.petId).name;
    if (this.f("confirm_wrong_pet")) pet = this.ownPets().find((p) => p.id !== a.petId)?.name ?? pet;
    this.end("book.done", {
      ...{ pet, type: D.typeLabel(a.type), vet: D.vetName(a.vet) },
      ...{ date: a.date, time: a.time, ref: a.id, price: D.priceOf(a.type) },
    });
    this.c.lastBooked = { ref: a.id, task };
  }

  /** Moving and cancelling: pick the appointment, then the new date and slot or the summary. */
  private stepAppt(task: Task) {
    if (!task.apptId) {
      const list = this.upcoming(task.petId);
      if (!list.length) return this.end("appt.none");
      if (list.length > 1) return this.ask(`${task.kind}.choose_appt`);
      task.apptId = list[0]!.id;
    }
    if (task.kind === "cancel") return this.ask("cancel.confirm_menu");
    const a = this.appt(task.apptId);
    task.type = a.type;
    task.vet ??= a.vet;
    if (!task.date) return this.ask("move.ask_date");
    if (this.schedRefused(task, this.pet(a.petId), "move.ask_date")) return;
    this.ask(task.time ? "move.confirm_menu" : "move.offer_slots");
  }

  private commitMove(task: Task) {
    const a = this.appt(task.apptId);
    this.log.push(`W:move ${a.id} ${a.date} ${a.time} -> ${task.date} ${task.time} ${task.vet}`);
    Object.assign(a, { date: task.date!, time: task.time!, vet: task.vet as D.VetId });
    const v = { pet: this.pet(a.petId).name, type: D.typeLabel(a.type), vet: D.vetName(a.vet) };
    this.end("move.done", { ...v, date: a.date, time: a.time, ref: a.id });
  }

  private commitCancel(a: D.Appt) {
    const fee = this.feeFor(a);
    a.status = "cancelled";
    this.log.push(`W:cancel ${a.id} fee=${fee}`);
    const v = { pet: this.pet(a.petId).name, type: D.typeLabel(a.type), ref: a.id };
    this.end("cancel.done", { ...v, date: a.date, time: a.time, fee });
  }

  // ---------------------------------------------------------------- prescriptions

  private stepRx(task: Task) {
    const pet = this.pet(task.petId);
    const meds = this.db.meds.filter((m) => m.petId === pet.id);
    if (!meds.length) return this.end("rx.none", { pet: pet.name });
    if (!task.medId) {
      const named = meds.find((m) => !!task.medName && m.name.toLowerCase().includes(task.medName));
      if (!named && meds.length > 1) return this.ask("rx.choose_med");
      task.medId = (named ?? meds[0])!.id;
    }
    const m = this.med(task);
    const v = { med: m.name, pet: pet.name };
    if (m.controlled && !this.f("rx_controlled_allowed")) return this.end("rx.refused_controlled", v);
    if (m.repeatsLeft <= 0) return this.end("rx.refused_no_repeats", v);
    const gap = this.f("rx_next_date_off") ? 27 : 28;
    if (D.TODAY_N - D.dn(m.lastIssued) < gap && !this.f("rx_ignore_28_days"))
      return this.end("rx.refused_too_early", {
        ...v,
        last: m.lastIssued,
        next: D.isoOf(D.dn(m.lastIssued) + gap),
      });
    this.ask(task.collect ? "rx.confirm_menu" : "rx.ask_collection");
  }

  private commitRx(task: Task) {
    const m = this.med(task);
    const ready = this.rxReady(task);
    m.repeatsLeft--;
    m.lastIssued = D.TODAY;
    this.log.push(`W:rx ${m.id} left=${m.repeatsLeft} ${task.collect} ${ready}`);
    const post = task.collect === "post" ? "1" : "";
    this.end("rx.done", { med: m.name, ready, post, left: String(m.repeatsLeft) });
  }

  // ---------------------------------------------------------------- reads, contact details, new pets

  private showVacc(pet: D.Pet) {
    const recs = this.db.vaccs.filter((v) => v.petId === pet.id);
    if (!recs.length) return this.emit("vacc.none", { pet: pet.name });
    const due = (v: (typeof recs)[number]): string =>
      this.f("booster_365_days") ? D.isoOf(D.dn(v.given) + 365 * v.years) : D.addYears(v.given, v.years);
    const s = recs.map((v) => `${v.name}~${v.given}~${due(v)}`).join("|");
    this.log.push(`R:vacc ${pet.id} ${s}`);
    this.emit("vacc.record", { pet: pet.name, recs: s });
  }

  private showClaim(task: Task) {
    const pet = this.pet(task.petId);
    const c = this.db.claims.filter((x) => x.petId === pet.id).at(-1);
    if (!c) return this.end("claim.none", { pet: pet.name });
    this.log.push(`R:claim ${c.ref} ${c.amount} ${c.status}`);
    this.end("claim.status", { pet: pet.name, ...c });
  }

  private commitContact(task: Task) {
    const o = this.owner();
    o[task.field!] = task.value!;
    this.log.push(`W:contact ${o.id} ${task.field}=${task.value}`);
    this.end("contact.done", { field: D.FIELD_LABEL[task.field!], value: task.value! });
  }

  private commitReg(task: Task) {
    const { name, species, breed, dob } = task as Required<Task>;
    const p: D.Pet = { id: `p${this.db.nextPet++}`, ownerId: this.c.ownerId!, name, species, breed, dob };
    this.db.pets.push(p);
    this.log.push(`W:pet ${p.id} ${name} ${species} ${breed} ${dob}`);
    this.end("reg.done", { name, species, dob });
  }
}

export const heldout9Agent: TestbedAgent = {
  name: "heldout9",
  description:
    "Veterinary practice assistant: mobile number then a pet's name (postcode added for sensitive requests, lock after 3 failures), per-pet choice from a numbered list, writes confirmed via a numbered 1/2/3 menu and late cancellations needing explicit fee acceptance.",
  faults: HELDOUT9_FAULTS,
  states: STATES,
  facts: D.FACTS,
  create(options = {}) {
    const unknown = (options.faults ?? []).filter((f) => !(HELDOUT9_FAULTS as readonly string[]).includes(f));
    if (unknown.length) throw new Error(`heldout9: unknown fault(s) ${unknown.join(", ")}`);
    return new VetTarget(new Set(options.faults ?? []), options.seed ?? 1);
  },
};
