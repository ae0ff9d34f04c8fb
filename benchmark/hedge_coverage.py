"""Hedge coverage on unlabelled text: signal words that cuelex leaves without a pair, by frame.

Runs ``cuelex.extract`` over the IU chest X-ray reports (``../shared/data/eval/iu_cxr_dev.jsonl``)
and the ACI-BENCH notes of the demo corpus, leaving out EVERY document listed in
``benchmark/data/realtext/documents.jsonl`` (tune and report halves alike: the report half must not
be read, and the tune half is scored by ``realtext_eval.py``). In each sentence it finds the
occurrences of hedge, contingency and evaluation signal words ("may", "if", "versus", "?",
"limited", "follow-up", ...) and asks whether cuelex used each one: an occurrence is **covered**
when it lies inside a pair's cue, or between a pair's cue and its target (a connective inside a
negated list, "no effusion or pneumothorax"). Uncovered occurrences are grouped by the signal and
its grammatical frame (the signal with the next words, pronouns and determiners folded) and
counted, so the frequent frames can be read and decided by the guidelines; hedged pairs whose
target looks odd (a pronoun, a bare generic word) are counted too. No gold labels are used.

    .venv/bin/python benchmark/hedge_coverage.py                  # summary and top frames
    .venv/bin/python benchmark/hedge_coverage.py --examples 3     # with example sentences
    .venv/bin/python benchmark/hedge_coverage.py --save /tmp/a.json
    .venv/bin/python benchmark/hedge_coverage.py --compare /tmp/a.json
    .venv/bin/python benchmark/hedge_coverage.py --frames         # the decided frames only

Example sentences are printed to the terminal only (the IU licence forbids copies in the project).
"""

from __future__ import annotations

import argparse
import json
import re
from collections import Counter, defaultdict
from pathlib import Path

from realtext_docs import ACI_FILE, DOCS_FILE, IU_FILE, iu_text, read_jsonl

import cuelex
from cuelex.pipeline import get_engine

# Signal words: chosen from how hedges, conditions and evaluations are written, not from the
# lexicons (a signal the lexicons lack is what this script is for).
SIGNALS: dict[str, str] = {
    "may": r"may",
    "might": r"might",
    "could": r"could",
    "can": r"can(?:not|'t)?",
    "should": r"should",
    "would": r"would",
    "suggest": r"suggest\w*",
    "concern": r"concern\w*",
    "question": r"question\w*",
    "versus": r"versus|vs\.?",
    "or": r"or|and/or",
    "slash": r"(?<=\w)/(?=\w)",
    "indeterminate": r"indeterminate",
    "correlate": r"correlat\w*",
    "follow-up": r"follow(?:[- ]?up|ed up|ing up)?",
    "if": r"if|unless|whether",
    "evaluate": r"evaluat\w*|assess(?!ment\b)\w*",
    "rule out": r"rul(?:e|ed|ing) out|r/o|exclude[ds]?|excluding",
    "?": r"\?",
    "likely": r"(?:un)?likely|likelihood",
    "probable": r"probabl\w*",
    "possible": r"possib\w*",
    "appear": r"appear(?:s|ed|ing)?|seem\w*|look(?:s|ed)? like",
    "suspicious": r"suspic\w*|suspect\w*",
    "worrisome": r"worr\w*",
    "recommend": r"recommend(?!ed medical)\w*",
    "consider": r"consider\w*",
    "represent": r"represent\w*|reflect\w*",
    "consistent": r"consistent|compatible|in keeping",
    "favor": r"favou?r\w*",
    "differential": r"differential|ddx",
    "unclear": r"unclear|uncertain\w*|unknown|equivocal|nondiagnostic|non-diagnostic",
    "limited": r"limit(?:ed|ing|ation\w*)|obscur\w*|not (?:well )?(?:seen|visualized|assessed)",
    "monitor": r"monitor\w*|watch\w*|observ\w*|surveillance",
    "workup": r"work(?:[- ]?up|ed up)|further (?:imaging|evaluation|workup)",
    "perhaps": r"perhaps|presum\w*|apparent\w*",
    "doubt": r"doubt\w*",
    "nonspecific": r"non-?specific",
    "return": r"return\w*|precautions?|call",
    "risk": r"risk",
}
_SIGNAL_RE = {name: re.compile(r"(?<![\w-])(?:" + pat + r")(?![\w])", re.I) for name, pat in SIGNALS.items()}
_TOKEN = re.compile(r"[A-Za-z][A-Za-z'\-]*|\d+(?:\.\d+)?|[^\sA-Za-z\d]")
_FOLD = {
    **{w: "PRON" for w in "he she they you we i it this these that there his her their your our its him them patient".split()},
    **{w: "DET" for w in "a an the any some".split()},
}
# hedged targets that say nothing on their own
_ODD_TARGETS = set(_FOLD) | {
    "symptoms", "findings", "finding", "changes", "change", "process", "etiology", "cause",
    "issues", "problem", "problems", "things", "something", "anything", "one", "concerns",
}
HEDGED = {"HEDGED_ABSENT", "UL2", "UL3", "UL4", "UL5"}

# The frames this script surfaced and issue 12 decided by the guidelines: (pattern, the level a pair
# whose cue overlaps the match should have). ``--frames`` counts how many occurrences get that pair.
FRAMES: dict[str, tuple[str, str]] = {
    "modal / possibly + consistent with": (
        r"\b(?:(?:may|might|could|can) (?:also )?be|possibly|perhaps) (?:consistent|compatible|in keeping) with", "UL3"),
    "X would be / is another consideration": (
        r"\b(?:(?:would|could|may|might) (?:also )?be (?:a|an|another)|is (?:also |still )?another|also (?:a|an))"
        r" (?:possible |diagnostic )?(?:consideration|possibility)\b", "UL3"),
    "diagnostic considerations include": (r"\b(?:diagnostic|primary|main) (?:considerations|possibilities) (?:would )?include", "UL3"),
    "X is in the differential": (r"\b(?:is|are|remains?) (?:also )?(?:in|on|included in) the differential", "UL3"),
    "X could have this appearance": (
        r"\b(?:could|can|may|might|would) (?:also )?(?:have|give|produce|account for) (?:this|a similar|these) (?:appearance|findings?)", "UL3"),
    "clinician's concern that / is for": (
        r"\b(?:(?:I am|I'm|we are) (?:concerned|worried) (?:that )?(?:he|she|they) (?:has|have|may have|might have|is having)"
        r"|concern (?:is|was) (?:for|that (?:he|she|they) (?:has|may have|might have)))", "UL3"),
    "if + patient + does not improve": (
        r"\b(?:if|unless) (?:he|she|they|you|the patient) (?:does not|doesn't|do not|don't|fails? to|is not|isn't|are not)"
        r" (?:improve|get better|better)\b", "UL5"),
    "if + finding + has not improved / becomes more": (
        r"\b(?:if|unless) (?:his|her|their|your|the) [a-z]+(?: [a-z]+)? (?:(?:has|have) not (?:improved|resolved)"
        r"|(?:become|becomes|gets|get) (?:more|increasingly) [a-z]+)", "UL5"),
    "no / without + acute|new findings, symptoms": (
        r"\b(?:no|without|denies(?: any)?|any) (?:definite )?(?:acute|new|active|recurrent|worsening) (?:findings?|symptoms?|changes)\b", "*"),
    "this / it + appears|seems + controlled|stable": (
        r"\b(?:this|it) (?:appears|seems)(?: to be)? (?:well[- ]controlled|well controlled|stable|under control|poorly controlled)", "UL2"),
    "X would (also) be possible / unlikely": (r"\b[a-z]+ would (?:also )?be (?:possible|unlikely)\b", "*"),
    "to establish / confirm stability, chronicity": (
        r"\bto (?:establish|assess|confirm|determine|document|evaluate) (?:the )?(?:stability|chronicity)", "UL5"),
    # issue 12, fifth session: classes from the hedge inventory audit (benchmark/hedge_inventory.py)
    "evaluate / screen / monitor + object + for + condition": (
        r"\b(?:evaluat(?:e|ed|ing)|assess(?:ed|ing)?|screen(?:ed|ing)?|check(?:ed|ing)?|monitor(?:ed|ing)?|watch(?:ed|ing)?)"
        r" (?:him|her|them|(?:the|this|his|her|their|your) [a-z-]+(?: [a-z-]+)?) for"
        r" (?!(?:the|his|her|their|this|that|a|an|\d+|one|two|several|next|about|up)\b)[a-z]", "UL5"),
    "to (further) characterize / further characterization of": (
        r"\b(?:to (?:(?:better|further) )?characteri[sz]e|(?:better|further|additional) characteri[sz]ation of) (?:the |this |a |an )?[a-z]", "UL5"),
    "to document / ensure / confirm resolution of": (
        r"\b(?:document|ensure|confirm|verify) (?:the )?(?:complete |interval )?(?:resolution|clearing) of", "UL5"),
    "follow-up imaging for / a study to follow the finding": (
        r"\bfollow[- ]?up (?:imaging|CT|MRI|ultrasound|radiographs?|chest (?:x-?ray|radiograph|CT)) (?:in \d+ \w+ )?(?:for|of) (?:the|this|a|an) [a-z]"
        r"|\b(?:imaging|CT|MRI|ultrasound|radiographs?|echocardiogram)(?: in \d+ \w+)? to (?:follow|monitor) (?:the|this|these) [a-z]", "UL5"),
    "if + patient + gains / loses N pounds": (
        r"\b(?:if|should) (?:he|she|they|you|the patient) (?:gains?|loses?) (?:more than |over )?\d+ (?:pounds?|lbs?|kg)", "UL5"),
    "should there be (any)": (r"\bshould there be\b", "UL5"),
    "suboptimal / technically limited evaluation for": (
        r"\b(?:suboptimal|technically limited) (?:evaluation|assessment) (?:for|of)"
        r"|\b(?:is|are|was|were) technically limited (?:for|in)", "UL4"),
}


def _fold(tok: str) -> str:
    low = tok.lower()
    if low in _FOLD:
        return _FOLD[low]
    if re.fullmatch(r"\d+(?:\.\d+)?", low):
        return "NUM"
    return low


def unseen_iu_reports(exclude: frozenset[str] = frozenset()) -> list[tuple[str, str]]:
    """(doc_id, text) of every IU report with text that is neither in the real-text evaluation set
    nor in ``exclude``."""
    listed = {d["doc_id"] for d in read_jsonl(DOCS_FILE)} | exclude
    out = []
    for r in read_jsonl(IU_FILE):
        doc_id = f"iu:{r['uid']}"
        if doc_id in listed or not (r.get("findings") or r.get("impression")):
            continue
        out.append((doc_id, iu_text({"findings": r.get("findings") or "", "impression": r.get("impression") or ""})))
    return out


def documents() -> list[tuple[str, str]]:
    """(doc_id, text) of every IU report and ACI note NOT in the real-text evaluation set."""
    listed = {d["doc_id"] for d in read_jsonl(DOCS_FILE)}
    out = unseen_iu_reports()
    for n in read_jsonl(ACI_FILE):
        doc_id = f"aci:{n['id']}"
        if doc_id not in listed:
            out.append((doc_id, n["text"]))
    return out


def frame_of(sentence: str, start: int, end: int, width: int = 2) -> str:
    """The signal with its next ``width`` tokens (folded), and '^' when it opens the sentence."""
    before = _TOKEN.findall(sentence[:start])
    after = _TOKEN.findall(sentence[end:])[:width]
    head = "^ " if not before or before[-1] in {":", "-", "."} else ""
    return head + sentence[start:end].lower() + " " + " ".join(_fold(t) for t in after)


def scan(examples: int = 0) -> dict:
    engine = get_engine()
    occ = Counter()          # signal -> occurrences
    unc = Counter()          # signal -> uncovered occurrences
    frames = Counter()       # (signal, frame) -> uncovered occurrences
    shown: dict[tuple[str, str], list[str]] = defaultdict(list)
    odd = Counter()
    odd_shown: dict[str, list[str]] = defaultdict(list)
    levels = Counter()
    docs = documents()
    for doc_id, text in docs:
        pairs = cuelex.extract(text, doc_id=doc_id)
        for p in pairs:
            levels[p.level.value] += 1
            if p.level.value in HEDGED:
                last = _TOKEN.findall(p.target_text)
                if len(last) == 1 and last[0].lower() in _ODD_TARGETS:
                    key = f"{p.level.value} {p.cue_text.lower()} -> {p.target_text.lower()}"
                    odd[key] += 1
                    if len(odd_shown[key]) < examples:
                        odd_shown[key].append(f"{doc_id}: {p.sentence.strip()[:220]}")
        for s0, s1 in engine.sentences(text):
            sentence = text[s0:s1]
            spans = []
            for p in pairs:
                if s0 <= p.cue_start < s1:
                    spans.append((p.cue_start, p.cue_end))
                    lo = min(p.cue_start, p.target_start)
                    hi = max(p.cue_end, p.target_end)
                    spans.append((lo, hi))
            for name, rx in _SIGNAL_RE.items():
                for m in rx.finditer(sentence):
                    a, b = s0 + m.start(), s0 + m.end()
                    occ[name] += 1
                    if any(lo < b and a < hi for lo, hi in spans):
                        continue
                    unc[name] += 1
                    key = (name, frame_of(sentence, m.start(), m.end()))
                    frames[key] += 1
                    if len(shown[key]) < examples:
                        shown[key].append(f"{doc_id}: {sentence.strip()[:220]}")
    return {
        "documents": len(docs),
        "levels": dict(levels),
        "occurrences": dict(occ),
        "uncovered": dict(unc),
        "frames": {f"{k[0]}\t{k[1]}": v for k, v in frames.items()},
        "odd_targets": dict(odd),
        "_shown": {f"{k[0]}\t{k[1]}": v for k, v in shown.items()},
        "_odd_shown": dict(odd_shown),
    }


def frame_counts() -> dict[str, list[int]]:
    """For each decided frame: [occurrences, occurrences with a pair of the decided level on it]."""
    rx = {name: re.compile(pat, re.I) for name, (pat, _lv) in FRAMES.items()}
    out = {name: [0, 0] for name in FRAMES}
    for doc_id, text in documents():
        found = [(name, m) for name, r in rx.items() for m in r.finditer(text)]
        if not found:
            continue
        pairs = cuelex.extract(text, doc_id=doc_id)
        for name, m in found:
            want = FRAMES[name][1]
            out[name][0] += 1
            # the pair's cue overlaps the frame, or (for a decisive qualifier) its target does
            if any(
                (p.level.value == want or (want == "*" and p.level.value != "ASSERTED"))
                and (p.cue_start < m.end() and m.start() < p.cue_end or p.target_start < m.end() and m.start() < p.target_end)
                for p in pairs
            ):
                out[name][1] += 1
    return out


def report(result: dict, top: int, previous: dict | None = None) -> None:
    prev_unc = (previous or {}).get("uncovered", {})
    prev_frames = (previous or {}).get("frames", {})
    print(f"Documents {result['documents']} (IU reports and ACI notes outside the evaluation set)")
    print("pairs by level: " + ", ".join(f"{k} {v}" for k, v in sorted(result["levels"].items())))
    if previous:
        print("before:         " + ", ".join(f"{k} {v}" for k, v in sorted(previous["levels"].items())))
    print("\n| signal | occurrences | uncovered |" + (" before |" if previous else ""))
    print("| --- | ---: | ---: |" + (" ---: |" if previous else ""))
    for name in sorted(result["occurrences"], key=lambda n: -result["uncovered"].get(n, 0)):
        extra = f" {prev_unc.get(name, 0)} |" if previous else ""
        print(f"| {name} | {result['occurrences'][name]} | {result['uncovered'].get(name, 0)} |{extra}")
    total = sum(result["uncovered"].values())
    print(f"\nuncovered occurrences: {total}" + (f" (before {sum(prev_unc.values())})" if previous else ""))
    print(f"\ntop {top} uncovered frames (signal, frame, count{', before' if previous else ''}):")
    for key, n in sorted(result["frames"].items(), key=lambda kv: -kv[1])[:top]:
        sig, fr = key.split("\t")
        extra = f"  (before {prev_frames.get(key, 0)})" if previous else ""
        print(f"  {n:5d}  {sig:12s} {fr}{extra}")
        for ex in result["_shown"].get(key, []):
            print(f"           - {ex}")
    if previous:
        moved = [(k, prev_frames.get(k, 0) - v) for k, v in result["frames"].items()]
        moved += [(k, v) for k, v in prev_frames.items() if k not in result["frames"]]
        moved = sorted((m for m in moved if m[1]), key=lambda kv: -abs(kv[1]))[:top]
        print("\nframes that moved most (positive = fewer uncovered now):")
        for key, d in moved:
            print(f"  {d:+5d}  {key.replace(chr(9), '  ')}")
    print("\nhedged pairs with a bare generic target:")
    for key, n in sorted(result["odd_targets"].items(), key=lambda kv: -kv[1])[:top]:
        print(f"  {n:5d}  {key}")
        for ex in result["_odd_shown"].get(key, []):
            print(f"           - {ex}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--examples", type=int, default=0, help="example sentences per frame")
    parser.add_argument("--top", type=int, default=60, help="how many frames to list")
    parser.add_argument("--signal", help="list only the frames of this signal")
    parser.add_argument("--save", type=Path, help="write the counts (no text) as JSON")
    parser.add_argument("--compare", type=Path, help="JSON from --save to compare against")
    parser.add_argument("--frames", action="store_true",
                        help="only count the decided frames (occurrences, with the decided pair)")
    args = parser.parse_args()
    if args.frames:
        print("| frame | occurrences | with the decided pair |\n| --- | ---: | ---: |")
        for name, (n, hit) in frame_counts().items():
            print(f"| {name} | {n} | {hit} |")
        return
    result = scan(args.examples)
    if args.signal:
        result["frames"] = {k: v for k, v in result["frames"].items() if k.split("\t")[0] == args.signal}
    previous = json.loads(args.compare.read_text()) if args.compare else None
    report(result, args.top, previous)
    if args.save:
        args.save.write_text(json.dumps({k: v for k, v in result.items() if not k.startswith("_")}, indent=1))


if __name__ == "__main__":
    main()
