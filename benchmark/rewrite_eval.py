"""Scoring on realistic rewrites: ``cuelex.score`` fates against blind gold fates.

Sources: the real-text documents marked ``rewrites`` (``benchmark/realtext_docs.py``); outputs:
``benchmark/data/rewrites_dev/outputs.jsonl`` for ACI-BENCH sources and, outside the project
(licence), ``private-eval/rewrites_iu/`` for chest X-ray report sources (LLM-style summaries and patient-friendly revisions
under the paper's four prompts, written by a helper that never saw cuelex's code); gold fates:
``fates.jsonl`` (another helper, blind), one per (output, gold source pair). cuelex's source pairs
are matched to gold pairs by target overlap; unmatched cuelex pairs are invalid and left out (they
count against source-pair precision, ``benchmark/realtext_eval.py``). Tune on ``--split tune``;
``--split report`` is the number the docs quote.

    .venv/bin/python benchmark/rewrite_eval.py --split tune
    .venv/bin/python benchmark/rewrite_eval.py --split report --write-docs
"""

from __future__ import annotations

import argparse
import csv
import re
import sys
from collections import Counter, defaultdict
from functools import cache

from realtext_docs import ROOT, load_documents, tune_fold
from realtext_gold import PRIVATE_REWRITES, load_gold, load_rewrites, match, write_block

import cuelex
from cuelex.concepts import normalize as _normalize
from cuelex.scoring import align as _align
from cuelex.scoring import markdown as _md
from cuelex.scoring import scorer as _scorer
from cuelex.scoring.align import DEFAULT_TIERS

DOCS_PAGE = ROOT.parent / "docs" / "scoring.md"
ABSENT = "ABSENT"
#: Fate classes of the confusion table, relative to the source level.
FATE_CLASSES = ("ABSENT", "ASSERTED", "UL1", "same hedged", "other hedged")


def fate_class(source_level: str, fate: str) -> str:
    """A fate (ABSENT or an output level) as a class of :data:`FATE_CLASSES`, relative to the source.

    Hedged levels (UL2–UL5, HEDGED_ABSENT) are told apart only as the source's own level or another,
    so the table says which kind of mistake costs most without naming rows.
    """
    if fate in (ABSENT, "ASSERTED", "UL1"):
        return fate
    return "same hedged" if fate == source_level else "other hedged"


#: The class the structural breakdown looks into (``--class-features``): the output keeps the source's
#: hedge by the gold reading, cuelex reads its mention as asserted.
FEATURE_CLASS = ("same hedged", "ASSERTED")
PROBABILITY_WORDS = ROOT.parents[1] / "shared" / "data" / "probability-words" / "survey_summary.csv"
#: Hedges LLM outputs use besides the survey phrases (a broad net for the breakdown only; the
#: extractor's own lexicon is not used, so the breakdown can show what it misses).
LLM_HEDGES = (
    "may", "might", "could", "possible", "possibly", "perhaps", "maybe", "suspect", "suspected",
    "suspicion", "concern", "concerning", "concerned", "worried", "worry", "consider", "considering",
    "considered", "rule out", "r/o", "ruling out", "differential", "ddx", "suggest", "suggests",
    "suggestive", "questionable", "uncertain", "unclear", "not sure", "appears", "seems", "looks like",
    "consistent with", "c/w", "versus", "vs", "presumed", "presumptive", "working diagnosis",
    "checking for", "check for", "evaluate for", "evaluating for", "test for", "testing for",
    "cannot exclude", "can't rule out", "not ruled out", "chance", "a sign of", "signs of", "thought to",
    "think", "believe", "potential", "potentially", "query", "?",
)


#: Words that make a mention a contingency, a plan or a check (the UL5 and UL4 kinds the survey
#: phrases leave out): a separate feature, so the breakdown tells plans from probability words.
PLAN_WORDS = (
    "if", "unless", "in case", "monitor", "monitoring", "watch", "watch for", "check", "recheck",
    "eval", "evaluate", "evaluation", "assess", "screen", "screening", "w/u", "workup", "work-up",
    "return", "report", "call", "risk", "follow", "f/u", "repeat", "trend", "order", "ordered",
    "pending", "await", "awaiting", "prevent", "avoid", "to make sure", "precautions",
)
#: Section kinds of a lead-in line or heading (a fixed vocabulary, so only kind names are printed).
LEAD_KINDS = {
    "differential / possible causes": ("differential", "ddx", "possible", "possibilities", "causes", "could be",
                                       "might be", "considering", "concern", "suspect", "rule out", "r/o"),
    "plan / next steps / checks": ("plan", "next", "steps", "doing", "to do", "checking", "check", "test",
                                   "workup", "w/u", "orders", "follow"),
    "return / watch / call": ("return", "watch", "call", "warning", "seek", "emergency", "precautions",
                              "when to", "signs"),
    "assessment / impression / diagnosis": ("assessment", "impression", "a/p", "diagnos", "dx", "problem",
                                            "what we found", "findings", "summary"),
    "counseling / risks": ("counsel", "risk", "side effect", "ses", "discussed"),
    "follow-up / pending / to do": ("f/u", "follow-up", "followup", "pending", "outstanding", "open", "action",
                                   "handoff", "todo"),
    "monitoring": ("monitor", "trend", "surveil"),
    "labs / imaging / studies": ("lab", "imaging", "studies", "study", "x-ray", "xr", "ct", "mri", "ultrasound",
                                 "us", "echo", "results"),
    "instructions / education / guidance": ("instruction", "education", "guidance", "advice", "advised",
                                            "counsel", "home", "self-care", "what you can do"),
    "medications": ("med", "medication", "medicine", "rx", "prescri"),
    "history / background / subjective": ("history", "hpi", "background", "subjective", "hx", "s/p", "pmh",
                                          "presentation", "presents", "cc", "complaint", "reason"),
    "exam / objective": ("exam", "objective", "vitals", "physical"),
}


@cache
def hedge_words() -> tuple[str, ...]:
    """The broad hedge list of the breakdown: the survey phrases that say less than certain, plus
    :data:`LLM_HEDGES`; longest first."""
    words = set(LLM_HEDGES)
    if PROBABILITY_WORDS.exists():
        with PROBABILITY_WORDS.open(encoding="utf-8") as handle:
            words |= {row["phrase"].lower() for row in csv.DictReader(handle) if float(row["median"]) < 95}
    return tuple(sorted(words, key=len, reverse=True))


def _has_hedge(text: str, words: tuple[str, ...] | None = None) -> bool:
    low = text.lower()
    for w in hedge_words() if words is None else words:
        if w == "?":
            if "?" in low:
                return True
        elif re.search(rf"(?<![\w/]){re.escape(w)}(?![\w/])", low):
            return True
    return False


#: Tests, studies and referrals whose purpose ("XR for fx") makes a mention an evaluation target.
_TEST_WORDS = (
    r"\b(?:x-?rays?|xr|cxr|ct|cta|mri|us|u/s|ultrasound|echo|tte|ekg|ecg|labs?|tests?|panel|culture|cx|biopsy|"
    r"scan|swab|ua|referr(?:al|ed)|consult|eval(?:uation)?|workup|w/u|screen(?:ing)?)\b"
)


#: Organ and body-part words of a "label:" that files a finding by place ("Lungs:", "Spine:").
_ORGAN_LABEL = (
    r"\b(?:lungs?|heart|cardiac|mediastinum|mediastinal|pleura[l]?|bones?|osseous|spine|thoracic|chest|"
    r"abdomen|abdominal|aorta|hila|hilar|soft tissues?|cardiomediastinal|airways?|diaphragm)\b"
)


_STUDY_WORDS = r"\b(?:x-?rays?|xr|cxr|film|scan|images?|pictures?|study|radiograph)\b"


def general_features(target: str, found: str, text: str, start: int) -> list[str]:
    """Names only: the organ groups a general target needs, and the shape of the output statement
    it was matched to (organ named, study named, "nothing …", negated, in the sentence's first words)."""
    groups = _align.general_target(_align.normal_words(target))
    feats = ["target groups: " + ("specific finding" if groups is None else "+".join(sorted(groups)) or "none")]
    low = found.lower()
    feats.append("statement names an organ" if re.search(_ORGAN_LABEL, low) else "statement names no organ")
    if re.search(_STUDY_WORDS, low):
        feats.append("statement names the study")
    if re.match(r"(?:nothing|no|not)\b", low):
        feats.append("statement opens with a negation")
    s0, s1 = _sentence_bounds(text, start)
    if re.search(_STUDY_WORDS, text[s0:s1].lower()):
        feats.append("sentence names the study")
    feats.append("all")
    return feats


def _lead_in(text: str, line_start: int) -> str | None:
    """The lead-in line a list item at ``line_start`` hangs from, found as the scorer finds it
    (:func:`cuelex.scoring.scorer._lead_in_line`: its last sentence), or None."""
    span = _scorer._lead_in_line(text, line_start)
    return None if span is None else text[span[0] : span[1]]


def _section_kind(line: str) -> str:
    low = line.lower()
    for kind, words in LEAD_KINDS.items():
        if any(re.search(rf"(?<![\w/]){re.escape(w)}", low) for w in words):
            return kind
    return "other"


def _sentence_bounds(text: str, pos: int) -> tuple[int, int]:
    start = max(text.rfind(c, 0, pos) for c in ".!?\n") + 1
    ends = [i for i in (text.find(c, pos) for c in ".!?\n") if i != -1]
    return start, (min(ends) + 1 if ends else len(text))


def mention_features(
    text: str, start: int, end: int, n_candidates: int, other_gold: bool, source_level: str = ""
) -> list[str]:
    """Structural features of the output mention cuelex chose (names only, never text): several
    mentions, another mention read at the gold level, heading, bullet, list item under a lead-in,
    table row, parentheses, and where a word of a broad hedge list stands unread."""
    feats = [f"source level {source_level}"] if source_level else []
    if n_candidates > 1:
        feats.append("several mentions")
        if other_gold:
            feats.append("another mention read at the gold level")
    ls = text.rfind("\n", 0, start) + 1
    le = text.find("\n", end)
    le = len(text) if le == -1 else le
    line = text[ls:le]
    if _md.is_heading_line(line, "lead_in") or text[ls:start].strip().startswith("#"):
        feats.append("heading")
    if line.lstrip().startswith("|"):
        feats.append("table row")
    lead = None
    if _md.item_marker(line):
        feats.append("bullet / list item")
        lead = _lead_in(text, ls)
        if lead is not None:
            feats.append("list item under a lead-in line")
            feats.append(f"lead-in kind: {_section_kind(lead)}")
    before = text[max(ls, start - 60) : start]
    if re.search(r"\bfor\W+(?:\w+\W+){0,3}$", before, re.IGNORECASE):
        feats.append("'for' within 3 words before the mention")
        if re.search(_TEST_WORDS, text[ls:start], re.IGNORECASE):
            feats.append("a test, study or referral word before it on its line")
    if re.search(r"→|->|=>", line):
        feats.append("arrow in the line")
    if re.match(r"[ \t]*(?:[-*•+][ \t]+|\d{1,2}[.)][ \t]+)?(?:\*\*|__)?if\b", line, re.IGNORECASE):
        feats.append("line opens with 'if'")
    if ":" in text[ls:start]:
        feats.append("a 'label:' before the mention on its line")
        label = text[ls : text.rfind(":", ls, start)]
        feats.append(f"label kind: {_section_kind(label)}")
        between = text[text.rfind(":", ls, start) + 1 : start]
        if re.search(r"[.;!?]", between):
            feats.append("a sentence end between the label and the mention")
        opening = _md.inline_label(text, ls)
        if opening is None or opening.end() > start:
            feats.append("the label does not open the line")
        else:
            name = opening.group("label").strip()
            if any(p.fullmatch(name) for p, _e in _scorer.plan_labels()["plan"]):
                feats.append("the line opens with a plan label (plan_labels.tsv)")
            if text.count(":", ls, start) > 1:
                feats.append("several labels before the mention on its line")
            after = text[opening.end() : start]
            if _scorer._STATEMENT_VERB.search(after):
                feats.append("a statement verb between the opening label and the mention")
            if any(p.search(after) for p, _e in _scorer.plan_labels()["treated"]):
                feats.append("a treatment word between the opening label and the mention")
            if re.search(_TEST_WORDS, name, re.IGNORECASE):
                feats.append("the opening label names a test or study")
            if re.search(_ORGAN_LABEL, name, re.IGNORECASE):
                feats.append("the opening label names an organ or body part")
            gap = len(re.findall(r"[\w/]+", after))
            feats.append(f"words between the opening label and the mention: {gap if gap < 3 else '3+'}")
            words = len(re.findall(r"[\w/]+", name))
            feats.append(f"opening label words: {min(words, 4)}{'+' if words >= 4 else ''}")
    if text.rfind("(", ls, start) > text.rfind(")", ls, start):
        feats.append("inside parentheses")
    s0, s1 = _sentence_bounds(text, start)
    sentence = text[s0:s1]
    hedged = False
    if _has_hedge(sentence):
        feats.append("hedge word in the same sentence")
        hedged = True
    if s0 > 0:
        p0, p1 = _sentence_bounds(text, max(0, s0 - 2))
        if _has_hedge(text[p0:min(p1, s0)]):
            feats.append("hedge word in the previous sentence")
            hedged = True
    if lead is not None and _has_hedge(lead):
        feats.append("hedge word in the lead-in line")
        hedged = True
    if not hedged:
        feats.append("no hedge word near")
    if _has_hedge(sentence, PLAN_WORDS):
        feats.append("plan / contingency word in the same sentence")
    elif lead is not None and _has_hedge(lead, PLAN_WORDS):
        feats.append("plan / contingency word in the lead-in line")
    head = text.rfind("\n#", 0, start)
    bold = [m.start() for m in re.finditer(r"\n[ \t]*(?:\*\*|__)[^\n]{1,60}(?:\*\*|__)[ \t]*:?[ \t]*(?=\n)", text[:start])]
    above = max([head, *bold]) if bold or head != -1 else -1
    if above != -1 and lead is None:
        hl = text[above + 1 : text.find("\n", above + 1)]
        feats.append(f"under a heading of kind: {_section_kind(hl)}")
    return feats
#: Shapes of a kept target that cuelex did not find (one pair may have several), in print order.
SHAPES = (
    ("abbreviation", "an abbreviation or acronym in the target (AS, PTX, prostate CA)"),
    ("qualified", "several words, one a size/severity/time/extent qualifier (focal, gross, acute)"),
    ("coordinated", "a coordinated list target (and, or, slash, comma)"),
    ("measurement", "a measurement or level target (digits, elevated, pressure, level)"),
    ("generic_head", "a generic or evidence head (finding, process, etiology, abnormality)"),
    ("concept", "the target (or its head) has a concept in the index (vocabulary/HPO/DO/lay)"),
    ("no_concept", "no concept for the target or its head"),
    ("lay_listed", "its concept has an HPO layperson or curated lay name"),
    ("out_head", "the output has the target's head noun"),
    ("out_word", "the output has another content word of the target"),
    ("out_lay", "the output has all words of one lay name of its concept in one sentence"),
    ("out_derived", "the output has a verb/adjective form of its head (narrowed, swollen, broken)"),
    ("out_nothing", "none of the four output signals above"),
)
_SHAPE_FUNCTION = frozenset(
    "a an the of in on at to for with and or no not any is are was be been your his her their "
    "this that there some from by as".split()
)
_MEASURE_WORDS = frozenset(
    "elevated elevation level levels pressure pressures count counts high low rate value reading "
    "readings numbers number".split()
)
_GENERIC_SHAPE_HEADS = frozenset(
    "finding findings abnormality abnormalities process etiology cause causes source sources "
    "change changes disease issue issues problem problems symptom symptoms sign signs "
    "evidence".split()
)


def _lay_names() -> dict[str, list[tuple[str, ...]]]:
    """Concept → lay keys of its HPO layperson and curated lay names (the diagnostic's lay test)."""
    out: dict[str, list[tuple[str, ...]]] = defaultdict(list)
    for key, entries in _normalize.concept_index().by_lay.items():
        for e in entries:
            if e.source in ("hpo", "lay") and e.strength == "same":
                out[e.concept_id].append(key)
    return out


def target_shapes(target: str, output: str, aligner: _align.Aligner, lay: dict) -> set[str]:
    """Aggregate shape labels of a kept source target that was not found in ``output`` (see
    :data:`SHAPES`); a diagnostic that names classes, never rows."""
    raw = re.findall(r"[A-Za-z0-9/]+", target)
    words = _align.normal_words(target)
    content = [w for w in words if w not in _SHAPE_FUNCTION]
    shapes: set[str] = set()
    if any((t.isupper() and 2 <= len(t) <= 6) or t in ("fx", "CA", "sx", "hx", "dx")
           or _normalize.expand_abbreviation(t) != t for t in raw if "/" not in t):
        shapes.add("abbreviation")
    if len(content) > 1 and any(_align._is_modifier(w) or w in ("focal", "gross", "overt", "mild", "acute")
                                for w in content):
        shapes.add("qualified")
    if re.search(r"\b(and|or)\b|[/,]", target):
        shapes.add("coordinated")
    if any(ch.isdigit() for ch in target) or any(w in _MEASURE_WORDS for w in words):
        shapes.add("measurement")
    pre, _cut = _align.head_part(content or list(words))
    head = pre[-1] if pre else (words[-1] if words else "")
    if head in _GENERIC_SHAPE_HEADS:
        shapes.add("generic_head")
    concepts = [c for c, _how in aligner._target_concepts(target, None)]
    shapes.add("concept" if concepts else "no_concept")
    if any(lay.get(c) for c in concepts):
        shapes.add("lay_listed")
    out_words = set(_align.normal_words(output))
    if head and head in out_words:
        shapes.add("out_head")
    if any(w in out_words for w in content if w != head):
        shapes.add("out_word")
    sentences = [set(_align.normal_words(s)) for s in re.split(r"(?<=[.!?\n])\s+", output)]
    lay_keys = [k for c in concepts for k in lay.get(c, ())]
    if any(set(k) <= s for k in lay_keys for s in sentences if k):
        shapes.add("out_lay")
    stem = _align.derived_stem(head) if head else ""
    forms = {f for f, _kind in _align.derived_forms().get(head, ())}
    if head and any(w != head and ((stem and _align.derived_stem(w) == stem)
                                   or any(_align._form_matches(w, w, f) for f in forms))
                    for w in out_words):
        shapes.add("out_derived")
    if not shapes & {"out_head", "out_word", "out_lay", "out_derived"}:
        shapes.add("out_nothing")
    return shapes


def _rates(rows: list[tuple[str, str]]) -> dict[str, float]:
    """TRR, URR, CAR from (source level, fate) rows; fate ABSENT or an output level."""
    n = len(rows)
    kept = [(s, f) for s, f in rows if f != ABSENT]
    k = len(kept)
    return {
        "TRR": k / n if n else float("nan"),
        "URR": sum(s == f for s, f in kept) / k if k else float("nan"),
        "CAR": sum(f == "ASSERTED" for _s, f in kept) / k if k else float("nan"),
    }


def output_batch(output: dict, doc: dict) -> int:
    """The rewrite batch of an output: its own ``batch`` (a later batch of new outputs of sources
    that already had some), else its document's ``rewrites_batch`` or ``batch``."""
    return int(output.get("batch", doc.get("rewrites_batch", doc.get("batch", 1))))


def evaluate(
    split: str, batch: int | None = None, shapes: bool = False, fold: str | None = None,
    **score_options: object,
) -> dict:
    docs = {d["doc_id"]: d for d in load_documents() if d["rewrites"]}
    # "all" is the real text (tune + report); rewrites of the written plans are asked for by name
    docs = {k: d for k, d in docs.items() if d["split"] == split or (split == "all" and d["split"] != "written")}
    if fold is not None:  # one half of the tune documents (see realtext_docs.tune_fold)
        docs = {k: d for k, d in docs.items() if tune_fold(k) == fold}
    gold = load_gold()
    all_outputs, all_fates, private = load_rewrites()
    if not private:
        print(f"note: {PRIVATE_REWRITES} not found: chest X-ray rewrites left out", file=sys.stderr)
    fates = {(r["output_id"], r["pair_id"]): r["fate"] for r in all_fates}
    outputs = [o for o in all_outputs if o["doc_id"] in docs]
    if batch is not None:  # a rewrite batch: outputs carry their own, else their document's
        outputs = [o for o in outputs if output_batch(o, docs[o["doc_id"]]) == batch]
    by_task: dict[str, Counter] = defaultdict(Counter)
    gold_rows: dict[str, list] = defaultdict(list)
    sys_rows: dict[str, list] = defaultdict(list)
    gold_all_rows: dict[str, list] = defaultdict(list)
    confusion: dict[str, Counter] = defaultdict(Counter)
    how_matched: dict[str, Counter] = defaultdict(Counter)
    features: dict[str, Counter] = defaultdict(Counter)
    seen_outputs: dict[tuple[str, str], set] = defaultdict(set)
    seen_docs: dict[tuple[str, str], set] = defaultdict(set)
    not_found: dict[str, Counter] = defaultdict(Counter)
    retained: dict[str, Counter] = defaultdict(Counter)
    called: dict[str, Counter] = defaultdict(Counter)
    general_calls: dict[str, Counter] = defaultdict(Counter)
    level_misses: dict[str, Counter] = defaultdict(Counter)
    shape_aligner = _align.Aligner()
    lay = _lay_names() if shapes else {}
    errors = []
    for out in outputs:
        doc = docs[out["doc_id"]]
        gpairs = gold.get(out["doc_id"], [])
        task = out["task"]
        for g in gpairs:
            fate = fates.get((out["output_id"], g.pair_id))
            if fate is not None:
                gold_all_rows[task].append((g.level, fate))
        report = cuelex.score(doc["text"], out["text"], doc_id=out["output_id"], n_boot=0, **score_options)
        spans = [(sp.source.target_start, sp.source.target_end) for sp in report.pairs]
        m = match(spans, gpairs)
        span_uses = Counter((sp.match.start, sp.match.end) for sp in report.pairs if sp.retained and sp.match is not None)
        for i, sp in enumerate(report.pairs):
            g = m.get(i)
            if g is None:
                by_task[task]["invalid"] += 1
                continue
            gfate = fates.get((out["output_id"], g.pair_id))
            if gfate is None:
                by_task[task]["unannotated"] += 1
                continue
            cfate = sp.output_level.value if sp.retained and sp.output_level is not None else ABSENT
            by_task[task]["pairs"] += 1
            by_task[task]["agree"] += cfate == gfate
            by_task[task]["gold_absent"] += gfate == ABSENT
            by_task[task]["invented"] += gfate == ABSENT and cfate != ABSENT
            gold_rows[task].append((g.level, gfate))
            sys_rows[task].append((sp.source.level.value, cfate))
            gclass, cclass = fate_class(g.level, gfate), fate_class(g.level, cfate)
            confusion[task][gclass, cclass] += 1
            if (gclass, cclass) == FEATURE_CLASS and sp.match is not None:
                tier = "exact" if sp.match.tier == "exact" else "other tiers"
                other_gold = any(
                    lv.value == gfate for c, lv in zip(sp.match.candidates, sp.candidate_levels, strict=False)
                    if c != (sp.match.start, sp.match.end)
                )
                feats = mention_features(
                    out["text"], sp.match.start, sp.match.end, len(sp.match.candidates), other_gold, g.level
                )
                features[task][tier, "(pairs)"] += 1
                seen_outputs[task, tier].add(out["output_id"])
                seen_docs[task, tier].add(out["doc_id"])
                features[task][tier, "(distinct outputs)"] = len(seen_outputs[task, tier])
                features[task][tier, "(distinct source documents)"] = len(seen_docs[task, tier])
                features[task][tier, f"level from: {sp.level_source}"] += 1
                for f in feats:
                    features[task][tier, f] += 1
            if cfate not in (ABSENT, gfate) and gfate != ABSENT and sp.match is not None:
                level_misses[task][gclass, cclass, mention_miss(sp, gfate)] += 1
            if cfate != ABSENT and sp.match is not None:
                # every retained call by how it was matched: how many of them gold calls absent
                called[task][f"{sp.match.tier}/{sp.match.detail}"] += 1
                called[task][f"{sp.match.tier}/{sp.match.detail}", "gold absent"] += gfate == ABSENT
            if cfate != ABSENT and sp.match is not None and sp.match.detail in ("general", "normal", "related"):
                # whole-organ statements: which target groups and statement shapes gold calls absent
                shared = span_uses[sp.match.start, sp.match.end] > 1
                extra = ["the same output span answers another source target"] if shared else []
                if shared:
                    others = {
                        q.match.detail for q in report.pairs
                        if q is not sp and q.retained and q.match is not None
                        and (q.match.start, q.match.end) == (sp.match.start, sp.match.end)
                    }
                    extra += [f"shared with a match of kind: {d}" for d in sorted(others)]
                for f in [*general_features(sp.source.target_text, sp.match.text, out["text"], sp.match.start), *extra]:
                    general_calls[task][sp.match.detail, f, gfate == ABSENT] += 1
            if gfate == ABSENT and cfate != ABSENT and sp.match is not None:
                # a truly absent target called retained: how it was matched, how much it is trusted
                conf = "low" if sp.match.low_confidence else "high"
                retained[task][f"{sp.match.tier}/{sp.match.detail}", f"{conf} confidence", cclass] += 1
                if span_uses[sp.match.start, sp.match.end] > 1:
                    retained[task]["(any)", "span shared with another source target", cclass] += 1
            if shapes and cfate == ABSENT and gfate != ABSENT:
                not_found[task]["total"] += 1
                not_found[task].update(target_shapes(sp.source.target_text, out["text"], shape_aligner, lay))
            if cfate != gfate:
                how = sp.match.tier if sp.match is not None else "-"
                tier = f"{sp.match.tier}/{sp.match.detail}" if sp.match is not None else "not found"
                how_matched[task][gclass, cclass, tier] += 1
                found = sp.match.text if sp.match is not None else ""
                errors.append(
                    f"[{task}/{out['prompt']}] {out['output_id']} {sp.source.level.value} "
                    f"{sp.source.target_text!r}: gold {gfate}, cuelex {cfate} ({how} {found!r})"
                )
    return {"by_task": by_task, "gold": gold_rows, "system": sys_rows,
            "gold_all": gold_all_rows, "errors": errors, "n_outputs": len(outputs),
            "confusion": confusion, "how_matched": how_matched, "features": features,
            "not_found": not_found, "retained": retained,
            "called": called, "general_calls": general_calls, "level_misses": level_misses}


#: Why a found target's output level differs from gold (:func:`mention_miss`), in print order.
MENTION_MISSES = (
    "wrong mention: another occurrence read at the gold level",
    "level not read: several occurrences, none read at the gold level",
    "level not read: the only occurrence",
)


def mention_miss(sp: _scorer.ScoredPair, gfate: str) -> str:
    """Whether a found target read at the wrong level had another occurrence read at the gold level
    (the mention choice is wrong) or not (the reading of the chosen mention is wrong): one of
    :data:`MENTION_MISSES`. Counts only; it names no row."""
    m = sp.match
    assert m is not None
    others = [
        lv.value for c, lv in zip(m.candidates, sp.candidate_levels, strict=False)
        if c != (m.start, m.end)
    ]
    if gfate in others:
        return MENTION_MISSES[0]
    return MENTION_MISSES[1] if len(m.candidates) > 1 else MENTION_MISSES[2]


def confusion_table(result: dict) -> str:
    """Counts only: gold fate class × cuelex fate class per task, how disagreements were matched, and
    how the truly absent targets called retained were matched (tier/detail and confidence).

    Safe on the report half: no row, text or id is printed.
    """
    lines = []
    for task in ("summary", "revision"):
        conf = result["confusion"].get(task)
        if not conf:
            continue
        lines += ["", f"{task}: gold (rows) × cuelex (columns)", "",
                  "| gold \\ cuelex | " + " | ".join(FATE_CLASSES) + " | total |",
                  "| --- |" + " ---: |" * (len(FATE_CLASSES) + 1)]
        for g in FATE_CLASSES:
            row = [conf[g, c] for c in FATE_CLASSES]
            lines.append(f"| {g} | " + " | ".join(str(n) for n in row) + f" | {sum(row)} |")
        lines += ["", f"{task}: disagreements by (gold class, cuelex class, how cuelex matched)"]
        for (g, c, tier), n in sorted(result["how_matched"][task].items(), key=lambda kv: (-kv[1], kv[0])):
            lines.append(f"  {n:3d}  {g} → {c}  [{tier}]")
        misses = result["level_misses"].get(task)
        if misses:
            lines += ["", f"{task}: found, level differs from gold, by (gold class, cuelex class, mention or reading)"]
            for (g, c, why), n in sorted(misses.items(), key=lambda kv: (-kv[1], kv[0])):
                lines.append(f"  {n:3d}  {g} → {c}  [{why}]")
        if result["retained"].get(task):
            lines += ["", f"{task}: truly absent targets called retained, by (how matched, confidence, cuelex class)"]
            for (tier, conf, c), n in sorted(result["retained"][task].items(), key=lambda kv: (-kv[1], kv[0])):
                lines.append(f"  {n:3d}  [{tier}] {conf} → {c}")
            gen = result["general_calls"].get(task)
            if gen:
                lines += ["", f"{task}: whole-organ matches (general/normal/related) by feature: calls / gold absent"]
                keys = sorted({(d, f) for d, f, _a in gen})
                for d, f in keys:
                    lines.append(f"  [{d}] {f}: {gen[d, f, False] + gen[d, f, True]} / {gen[d, f, True]}")
            lines += ["", f"{task}: retained calls of those match kinds (all / gold absent)"]
            kinds = sorted({tier for tier, _conf, _c in result["retained"][task]})
            for tier in kinds:
                lines.append(f"  [{tier}] {result['called'][task][tier]} / {result['called'][task][tier, 'gold absent']}")
    return "\n".join(lines)


def feature_table(result: dict) -> str:
    """Counts only: the structural features of the :data:`FEATURE_CLASS` pairs per task and matching
    tier (a pair counts under every feature it has). Safe on the report half."""
    lines = []
    for task in ("summary", "revision"):
        feats = result["features"].get(task)
        if not feats:
            continue
        for tier in ("exact", "other tiers"):
            n = feats[tier, "(pairs)"]
            if not n:
                continue
            lines += ["", f"{task}: {FEATURE_CLASS[0]} → {FEATURE_CLASS[1]} [{tier}], {n} pairs, by feature"]
            rows = [(f, k) for (t, f), k in feats.items() if t == tier and f != "(pairs)"]
            for f, k in sorted(rows, key=lambda fk: (-fk[1], fk[0])):
                lines.append(f"  {k:3d}  {f}")
    return "\n".join(lines)


def shape_table(result: dict) -> str:
    """Counts only: the kept-but-not-found pairs (gold kept, cuelex ABSENT) by target shape, per
    task. Safe on the report half: no row, text or id is printed."""
    tasks = [t for t in ("summary", "revision") if result["not_found"].get(t)]
    if not tasks:
        return "\nkept targets not found: none"
    lines = ["", "kept targets not found (gold kept, cuelex ABSENT), by target shape (a pair may count in several)",
             "", "| shape | " + " | ".join(tasks) + " |", "| --- |" + " ---: |" * len(tasks)]
    lines.append("| all | " + " | ".join(str(result["not_found"][t]["total"]) for t in tasks) + " |")
    for name, what in SHAPES:
        lines.append(f"| {name}: {what} | " + " | ".join(str(result["not_found"][t][name]) for t in tasks) + " |")
    return "\n".join(lines)


def table(result: dict) -> str:
    tasks = [t for t in ("summary", "revision") if t in result["by_task"]]
    head = "| | " + " | ".join({"summary": "summaries", "revision": "patient-friendly revisions"}[t] for t in tasks) + " |"
    lines = [f"{result['n_outputs']} outputs.", "", head, "| --- |" + " --- |" * len(tasks)]
    cells = []
    for t in tasks:
        c = result["by_task"][t]
        cells.append(f"{c['agree'] / c['pairs']:.0%} ({c['agree']}/{c['pairs']})" if c["pairs"] else "–")
    lines.append("| fate agrees with gold | " + " | ".join(cells) + " |")
    for metric in ("TRR", "URR", "CAR"):
        cells = []
        for t in tasks:
            g = _rates(result["gold"][t])[metric]
            s = _rates(result["system"][t])[metric]
            cells.append(f"{g:.0%} → {s:.0%}")
        lines.append(f"| {metric}, gold → cuelex | " + " | ".join(cells) + " |")
    cells = []
    for t in tasks:
        c = result["by_task"][t]
        cells.append(f"{c['invented'] / c['gold_absent']:.0%} ({c['invented']}/{c['gold_absent']})" if c["gold_absent"] else "–")
    lines.append("| truly absent targets called retained | " + " | ".join(cells) + " |")
    cells = []
    for t in tasks:
        c = result["by_task"][t]
        cells.append(f"{c['invalid']}")
    lines.append("| cuelex source pairs with no gold pair (left out) | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--split", choices=["tune", "report", "all", "written"], default="tune",
                        help="written: rewrites of the plans written for the project (development only)")
    parser.add_argument("--linker", action="store_true", help="score with linker=True")
    parser.add_argument("--semantic", action="store_true",
                        help="add the optional embedding tier (needs cuelex[semantic]) to the default tiers")
    parser.add_argument("--errors", action="store_true", help="print disagreeing rows (always on for tune, except fold b)")
    parser.add_argument("--write-docs", action="store_true", help="write the table into docs/scoring.md")
    parser.add_argument("--batch", type=int, help="only the outputs of this rewrite batch (a fresh check)")
    parser.add_argument("--fold", choices=["a", "b"], help="only one fold of the tune half (develop on one, "
                        "check the other)")
    parser.add_argument("--confusion", action="store_true",
                        help="print the aggregate fate-class confusion table (counts only; allowed on the report half)")
    parser.add_argument("--class-features", action="store_true",
                        help="print the structural breakdown of same hedged → ASSERTED (counts only; allowed on the report half)")
    parser.add_argument("--shapes", action="store_true",
                        help="print the kept-but-not-found pairs by target shape (counts only; allowed on the report half)")
    args = parser.parse_args(argv)
    if args.fold and args.split != "tune":
        parser.error("--fold divides the tune half only")
    if (args.batch is not None or args.fold or args.split == "written") and args.write_docs:
        parser.error("--write-docs reports whole splits; leave out --batch and --fold")
    options: dict = {"linker": True} if args.linker else {}
    if args.semantic:
        options["tiers"] = [*DEFAULT_TIERS, "semantic"]
    result = evaluate(args.split, batch=args.batch, shapes=args.shapes, fold=args.fold, **options)
    out = table(result)
    print(out)
    if args.confusion:
        print(confusion_table(result))
    if args.class_features:
        print(feature_table(result))
    if args.shapes:
        print(shape_table(result))
    if (args.split in ("tune", "written") and args.fold != "b") or args.errors:  # fold b is checked blind, like report
        print("\ndisagreements:")
        for line in result["errors"]:
            print("  " + line)
    if args.write_docs:
        write_block(DOCS_PAGE, "rewrites", out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
