"""The spaCy component: factory via entry point, Doc/Span extensions, pickling, medSpaCy pipelines."""

from __future__ import annotations

import pickle

import pytest
import spacy
from hypothesis import given, settings
from hypothesis import strategies as st
from spacy.tokens import Span

import cuelex
from cuelex import Level
from cuelex.component import TextKeepingTokenizer

TEXT = "Possible right lower lobe pneumonia. No pleural effusion. Pulmonary embolism cannot be excluded."


def test_load_returns_blank_english_with_component():
    nlp = cuelex.load()
    assert nlp.lang == "en" and nlp.pipe_names == ["cuelex"]
    doc = nlp(TEXT)
    pairs = doc._.cue_pairs
    assert [(p.target_text, p.level) for p in pairs] == [
        ("right lower lobe pneumonia", Level.UL3),
        ("pleural effusion", Level.UL1),
        ("Pulmonary embolism", Level.UL3),
    ]
    assert [s.label_ for s in doc.spans["cuelex"]] == ["UL3", "UL1", "UL3"]


def test_load_rejects_unknown_config():
    with pytest.raises(ValueError, match="unknown cuelex config"):
        cuelex.load(lexicon="x")


def test_factory_is_registered_by_name():
    nlp = spacy.blank("en")
    nlp.add_pipe("cuelex")
    assert nlp("No fever.")._.cue_pairs[0].level is Level.UL1


def test_entry_point_registers_factory():
    from importlib.metadata import entry_points

    eps = [ep for ep in entry_points(group="spacy_factories") if ep.name == "cuelex"]
    assert eps and eps[0].value == "cuelex.component:make_cuelex"


def test_entities_get_uncertainty_level_and_cue():
    nlp = cuelex.load()
    doc = nlp.make_doc(TEXT)
    doc.ents = [
        doc.char_span(TEXT.index("pneumonia"), TEXT.index("pneumonia") + 9, label="PROBLEM"),
        doc.char_span(TEXT.index("pleural"), TEXT.index("pleural") + 16, label="PROBLEM"),
    ]
    doc = nlp.get_pipe("cuelex")(doc)
    levels = [e._.uncertainty_level for e in doc.ents]
    assert levels == [Level.UL3, Level.UL1]
    assert doc.ents[0]._.uncertainty_cue.text == "Possible"
    other = Span(doc, 0, 1)
    assert other._.uncertainty_level is None


def test_doc_survives_serialisation():
    nlp = cuelex.load()
    doc = nlp(TEXT)
    data = doc.to_bytes()
    doc2 = spacy.tokens.Doc(nlp.vocab).from_bytes(data)
    assert doc2._.cue_pairs == doc._.cue_pairs


def test_stored_pairs_are_json_text_written_only_when_the_doc_leaves():
    """On a live Doc the pairs' JSON is a PairsJSON: equal to the text, written on first need;
    pickling, to_bytes and a DocBin round trip give back the plain text and the same pairs."""
    import json

    from spacy.tokens import Doc, DocBin

    from cuelex.extensions import PAIRS_KEY, PairsJSON, encode

    nlp = cuelex.load()
    doc = nlp(TEXT + " ?PE 😀 “likely” atelectasis")
    pairs = doc._.cue_pairs
    value = doc.user_data[PAIRS_KEY]
    assert isinstance(value, PairsJSON) and value._text is None  # nothing written yet
    text = encode([p.model_dump(mode="json") for p in pairs])
    assert value == text and str(value) == text and text == value and hash(value) == hash(text)
    assert json.loads(str(value)) == [p.model_dump(mode="json") for p in pairs]
    again = pickle.loads(pickle.dumps(doc))
    assert again.user_data[PAIRS_KEY] == text and type(again.user_data[PAIRS_KEY]) is str
    assert again._.cue_pairs == pairs
    for fresh in (nlp(TEXT), nlp("")):  # msgpack writes the text when it was never asked for
        want = fresh._.cue_pairs
        back = Doc(nlp.vocab).from_bytes(fresh.to_bytes())
        assert type(back.user_data[PAIRS_KEY]) is str and back._.cue_pairs == want
    bin_ = DocBin(store_user_data=True)
    docs = list(nlp.pipe([TEXT, "No fever.", "Atelectasis versus pneumonia."]))
    for d in docs:
        bin_.add(d)
    read = list(DocBin().from_bytes(bin_.to_bytes()).get_docs(nlp.vocab))
    assert [d._.cue_pairs for d in read] == [d._.cue_pairs for d in docs]
    assert [d.user_data[PAIRS_KEY] for d in read] == [str(d.user_data[PAIRS_KEY]) for d in docs]
    assert [[(s.start, s.end, s.label_) for s in d.spans["cuelex"]] for d in read] == [
        [(s.start, s.end, s.label_) for s in d.spans["cuelex"]] for d in docs
    ]
    copied = doc.copy()
    assert copied._.cue_pairs == pairs and copied.user_data == doc.user_data


def test_pipeline_is_picklable():
    nlp = cuelex.load()
    nlp2 = pickle.loads(pickle.dumps(nlp))
    assert nlp2(TEXT)._.cue_pairs == nlp(TEXT)._.cue_pairs


@pytest.mark.slow
def test_pipe_with_two_processes():
    nlp = cuelex.load()
    texts = [TEXT, "No fever.", "Atelectasis versus pneumonia."] * 4
    single = [d._.cue_pairs for d in nlp.pipe(texts)]
    multi = [d._.cue_pairs for d in nlp.pipe(texts, n_process=2, batch_size=3)]
    assert multi == single


@pytest.mark.slow
def test_pipe_with_two_processes_after_importing_medspacy():
    # medSpaCy registers global msgpack decoders that take over any dict with a "section" key
    # (every pair has one): before the fix this raised "'NoneType' object is not subscriptable"
    import medspacy  # noqa: F401

    nlp = spacy.blank("en")
    nlp.add_pipe("cuelex", config={"spans_key": "cuelex"})
    texts = [TEXT, "No fever.", "Atelectasis versus pneumonia."] * 4
    single = [d._.cue_pairs for d in nlp.pipe(texts)]
    multi_docs = list(nlp.pipe(texts, n_process=2, batch_size=3))
    assert [d._.cue_pairs for d in multi_docs] == single
    assert all(p.section is None or isinstance(p.section, str) for d in single for p in d)
    assert [len(d.spans["cuelex"]) for d in multi_docs] == [len(s) for s in single]


@spacy.Language.component("drop_target_rules")
def drop_target_rules(doc):
    """The documented workaround (docs/component.md): medSpaCy's TargetMatcher stores TargetRule
    objects in ``Span._.target_rule``, which msgpack cannot carry between processes."""
    for key in [k for k in doc.user_data if isinstance(k, tuple) and k[1:2] == ("target_rule",)]:
        del doc.user_data[key]
    return doc


@pytest.mark.slow
def test_pipe_with_two_processes_inside_medspacy_pipeline():
    import medspacy
    from medspacy.ner import TargetRule

    texts = [TEXT, "No fever. Pneumonia is unlikely.", "Atelectasis versus pneumonia."] * 3

    def view(doc):
        return (doc._.cue_pairs, [(e.text, e._.uncertainty_level) for e in doc.ents])

    # medSpaCy's sentence splitter + cuelex: multiprocessing as is
    nlp = medspacy.load(medspacy_enable=["medspacy_pyrush"])
    nlp.add_pipe("cuelex")
    assert [d._.cue_pairs for d in nlp.pipe(texts, n_process=2, batch_size=2)] == [
        d._.cue_pairs for d in nlp.pipe(texts)
    ]
    # with medSpaCy's TargetMatcher: its TargetRule objects need the workaround
    nlp = medspacy.load(medspacy_enable=["medspacy_pyrush", "medspacy_target_matcher"])
    nlp.get_pipe("medspacy_target_matcher").add(
        [TargetRule("pneumonia", "PROBLEM"), TargetRule("pleural effusion", "PROBLEM")]
    )
    nlp.add_pipe("cuelex")
    nlp.add_pipe("drop_target_rules", last=True)
    single = [view(d) for d in nlp.pipe(texts)]
    multi = [view(d) for d in nlp.pipe(texts, n_process=2, batch_size=2)]
    assert multi == single
    assert ("pneumonia", Level.UL3) in single[0][1]
    assert ("Pneumonia", Level.HEDGED_ABSENT) in single[1][1]


def test_runs_inside_medspacy_pipeline_with_its_sentences_and_targets():
    import medspacy
    from medspacy.ner import TargetRule

    nlp = medspacy.load(medspacy_enable=["medspacy_pyrush", "medspacy_target_matcher"])
    nlp.get_pipe("medspacy_target_matcher").add(
        [TargetRule("pneumonia", "PROBLEM"), TargetRule("pleural effusion", "PROBLEM")]
    )
    nlp.add_pipe("cuelex")
    doc = nlp(TEXT)
    assert {e.text: e._.uncertainty_level for e in doc.ents} == {
        "pneumonia": Level.UL3,
        "pleural effusion": Level.UL1,
    }
    assert len(doc._.cue_pairs) == 3


def test_load_tokenizer_keeps_texts_and_spacy_tokens():
    """``cuelex.load()``'s tokenizer remembers each Doc's text; tokens and bytes are spaCy's."""
    nlp = cuelex.load()
    blank = spacy.blank("en")
    text = "Possible pneumonia.  No effusion\n?PE, r/o MI 😀 (e.g. CHF)"
    doc = nlp(text)
    assert [(t.text, t.whitespace_) for t in doc] == [(t.text, t.whitespace_) for t in blank(text)]
    assert isinstance(nlp.tokenizer, TextKeepingTokenizer)
    assert nlp.tokenizer.texts[doc] == doc.text == text
    assert nlp.tokenizer.to_bytes(exclude=["vocab"]) == blank.tokenizer.to_bytes(exclude=["vocab"])
    clone = pickle.loads(pickle.dumps(nlp.tokenizer))
    assert type(clone) is TextKeepingTokenizer and clone.texts == {}
    assert [t.text for t in clone(text)] == [t.text for t in doc]
    # a Doc made elsewhere: the component reads doc.text
    other = nlp.get_pipe("cuelex")(blank(text))
    assert other._.cue_pairs == doc._.cue_pairs == cuelex.extract(text)


@pytest.fixture(scope="module")
def tokenizers() -> tuple[TextKeepingTokenizer, spacy.tokenizer.Tokenizer]:
    """A warming tokenizer and spaCy's own, same settings, kept warm across the module's tests."""
    blank = spacy.blank("en")
    tok = TextKeepingTokenizer(blank.vocab)
    tok.from_bytes(blank.tokenizer.to_bytes())
    return tok, spacy.blank("en").tokenizer


# words with affixes, spaCy special cases (contractions, abbreviations, emoticons, whitespace)
# and separators: the chunks whose caching spaCy's special-case rule is about
_PIECES = [
    "pneumonia", "pneumonia,", "(pneumonia)", "effusion.", "r/o", "?PE", "Dr.", "Dr", "don't",
    "can't,", "(don't", "e.g.", "e.g.,", "a.m.", ":)", ":)...", "U.S.", "MI", "1.5cm", "x-ray",
    "'s", "😀", "—", "Mr.Smith", "\\n", "C++", "i.e.)", "vs.", "No", "a.",
]
_SEPS = [" ", "  ", "\n", " \n", "\n\n", "\t", "\u00a0", " \u2014 ", ""]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(_PIECES), st.sampled_from(_SEPS)), max_size=14))
def test_warming_tokenizer_gives_spacys_docs(tokenizers, parts):
    """Property: the tokenizer that caches every new chunk (one instance, warm across the
    examples) gives byte-identical Docs to spaCy's own tokenizer."""
    tok, blank = tokenizers
    text = "".join(p + s for p, s in parts)
    for _ in range(2):  # the second time every chunk is warm
        got, want = tok(text), blank(text)
        assert [(t.text, t.whitespace_, t.norm_) for t in got] == [
            (t.text, t.whitespace_, t.norm_) for t in want
        ]
        assert got.to_bytes() == want.to_bytes()


def test_warming_tokenizer_is_bounded_and_rewarms_after_a_flush(monkeypatch):
    """The set of warmed chunks is emptied past its bound and when spaCy empties its cache
    (a new special case); the Docs stay spaCy's."""
    import cuelex.component as component

    blank = spacy.blank("en")
    tok = TextKeepingTokenizer(blank.vocab)
    tok.from_bytes(blank.tokenizer.to_bytes())
    text = "Possible pneumonia,\nlikely (viral).  No effusion;\tDr. Smith's note."
    tok(text)
    assert {"pneumonia,", "(viral).", "Smith's"} <= tok._warmed
    tok.add_special_case("likely", [{"ORTH": "likely"}])
    assert tok._warmed == set()
    monkeypatch.setattr(component, "_WARMED_MAX", 3)
    for other in ("one two three four", "five six seven eight", text):
        tok(other)
        assert len(tok._warmed) <= 3 + len(set(other.split()))
    blank.tokenizer.add_special_case("likely", [{"ORTH": "likely"}])
    assert tok(text).to_bytes() == blank.tokenizer(text).to_bytes()


def test_pipe_batches_give_the_same_docs_as_calling_the_component():
    """``nlp.pipe`` runs the component's own ``pipe`` (Docs tokenised a batch ahead): the same
    pairs, spans and JSON as calling the pipeline on each text, whatever the batch size."""
    nlp = cuelex.load()
    texts = [TEXT, "No fever.", "", "Atelectasis versus pneumonia.", "? PE"] * 3
    want = [nlp(t) for t in texts]
    for batch_size in (1, 2, 7, 1000):
        got = list(nlp.pipe(texts, batch_size=batch_size))
        assert [d.text for d in got] == texts
        assert [d._.cue_pairs for d in got] == [d._.cue_pairs for d in want]
        assert [d.user_data for d in got] == [d.user_data for d in want]
        assert [[(s.start, s.end, s.label_) for s in d.spans["cuelex"]] for d in got] == [
            [(s.start, s.end, s.label_) for s in d.spans["cuelex"]] for d in want
        ]


def test_pipe_hands_a_failing_doc_to_the_error_handler(monkeypatch):
    import cuelex.component as component

    real = component.run_pipeline

    def failing(text, **kwargs):
        if "BOOM" in text:
            raise ValueError("cannot read BOOM")
        return real(text, **kwargs)

    monkeypatch.setattr(component, "run_pipeline", failing)
    nlp = cuelex.load()
    texts = ["No fever.", "Possible BOOM pneumonia.", "Atelectasis versus pneumonia."]
    with pytest.raises(ValueError, match="cannot read BOOM"):
        list(nlp.pipe(texts))
    failed = []
    nlp.set_error_handler(lambda name, proc, docs, e: failed.append((name, docs[0].text, e)))
    assert nlp.get_pipe("cuelex").get_error_handler() is not None
    docs = list(nlp.pipe(texts, batch_size=2))
    assert [d.text for d in docs] == [texts[0], texts[2]]  # skipped, as spaCy skips it
    assert [(n, t, type(e)) for n, t, e in failed] == [("cuelex", texts[1], ValueError)]


def test_cue_pairs_read_from_the_stored_pairs_equal_the_parsed_json():
    """Reading ``Doc._.cue_pairs`` on a Doc the component just made copies its pairs instead of
    parsing the JSON: the same records, field types and set fields as parsing gives."""
    from cuelex.extensions import _PAIR_LIST, PAIRS_KEY

    nlp = cuelex.load()
    texts = [TEXT, "Likely atelectasis; r/o PE. ?MI 😀 Cannot exclude early pneumonia."]
    for doc in nlp.pipe(texts):
        got = doc._.cue_pairs
        parsed = _PAIR_LIST.validate_json(str(doc.user_data[PAIRS_KEY]))
        assert got and got == parsed
        for a, b in zip(got, parsed, strict=True):
            assert a.model_fields_set == b.model_fields_set
            assert {k: type(v) for k, v in a.__dict__.items()} == {
                k: type(v) for k, v in b.__dict__.items()
            }
        assert doc._.cue_pairs is not got  # a fresh list of fresh records each time
        # a value written by someone else is parsed, not taken from the stored pairs
        doc.user_data[PAIRS_KEY] = "[]"
        assert doc._.cue_pairs == []


def test_spans_of_a_doc_from_another_vocab_keep_their_labels():
    nlp = cuelex.load()
    other = nlp.get_pipe("cuelex")(spacy.blank("en")(TEXT))
    assert other.vocab is not nlp.vocab
    assert [s.label_ for s in other.spans["cuelex"]] == ["UL3", "UL1", "UL3"]
