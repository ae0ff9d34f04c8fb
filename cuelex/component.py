"""The ``cuelex`` spaCy pipeline component (factory registered through an entry point)."""

import weakref
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

import spacy
from spacy.language import Language
from spacy.tokenizer import Tokenizer
from spacy.tokens import Doc
from spacy.util import minibatch, raise_error

from .corpus import check_text
from .extensions import ASSESS_KEY, encode, register_extensions, store_pairs
from .levels import Level
from .pipeline import get_engine, get_linker, run_pipeline

register_extensions()

DEFAULT_CONFIG = {
    "lexicons": None,
    "rules_dir": None,
    "extra_lexicons": [],
    "use_doc_sents": True,
    "assess_ents": True,
    "spans_key": "cuelex",
    "link": False,
    "vocabulary": None,
    "deduplicate": False,
}

# Docs tokenised ahead by ``CuelexComponent.pipe`` at most: tokenising a batch and then scanning it
# keeps each one's tables in the CPU caches (interleaving them per Doc cost 6-15% of the pipeline)
_MAX_BATCH = 256

# chunks remembered as cached by ``TextKeepingTokenizer`` at most (about 10 MB of strings)
_WARMED_MAX = 1 << 17

ErrorHandler = Callable[[str, Callable[[Doc], Doc], list[Doc], Exception], None]


class TextKeepingTokenizer(Tokenizer):
    """spaCy's tokenizer (same tokens, same serialisation) that also remembers each Doc's text,
    weakly, so that the component need not rebuild ``doc.text`` from the tokens (a twentieth of
    the pipeline's time), and that fills spaCy's chunk cache for every new chunk.

    spaCy caches the tokens of a whitespace-separated chunk only while no special case has been
    met earlier in the same text, and a newline is a special case: after a note's first line
    nothing is cached, and every later word with punctuation is split again in every note (two
    thirds of the tokenizer's time on clinic notes). Each chunk not seen before is tokenised once
    on its own, which caches it exactly as spaCy would have at a text's start (a chunk with a
    special case inside stays uncached, spaCy's rule). ``cuelex.load()`` uses it; any other
    tokenizer works the same, slower.
    """

    def __init__(self, *args: object, **kwargs: object) -> None:
        self._warmed: set[str] = set()  # before spaCy's __init__, whose setters flush the cache
        super().__init__(*args, **kwargs)
        self.texts: weakref.WeakKeyDictionary[Doc, str] = weakref.WeakKeyDictionary()

    def __call__(self, text: str) -> Doc:
        chunks = text.split()  # str.split and spaCy cut chunks at the same (isspace) characters
        if not self._warmed.issuperset(chunks):  # (no set built when every chunk is warm)
            new = set(chunks)
            new.difference_update(self._warmed)
            if len(self._warmed) > _WARMED_MAX:  # bounded: a chunk warmed again only costs time
                self._warmed.clear()
            tokenize = super().__call__
            for chunk in new:
                tokenize(chunk)
            self._warmed.update(new)
        doc = super().__call__(text)
        self.texts[doc] = text
        return doc

    def _flush_cache(self) -> None:
        """spaCy empties its cache when rules or affixes change: warm every chunk again."""
        self._warmed.clear()
        super()._flush_cache()


class CuelexComponent:
    """Finds cue–target pairs in each Doc (``Doc._.cue_pairs``) and rates the Doc's entities.

    When the Doc already has sentence boundaries (medSpaCy's sentence splitter, a parser) they are
    used; otherwise cuelex's clinical splitter runs. When the Doc has entities (medSpaCy's
    TargetMatcher or any NER), each gets ``Span._.uncertainty_level`` and ``Span._.uncertainty_cue``.
    Cue and target spans are also written to ``doc.spans[spans_key]`` labelled with their level.
    """

    def __init__(
        self,
        nlp: Language,
        name: str = "cuelex",
        *,
        lexicons: str | list[str] | None = None,
        rules_dir: str | None = None,
        extra_lexicons: list[str] | tuple[str, ...] = (),
        use_doc_sents: bool = True,
        assess_ents: bool = True,
        spans_key: str | None = "cuelex",
        link: bool = False,
        vocabulary: str | None = None,
        deduplicate: bool = False,
    ):
        self.name = name
        self.tokenizer = nlp.tokenizer  # its texts, when it keeps them (TextKeepingTokenizer)
        self.lexicons = lexicons
        self.rules_dir = rules_dir
        self.extra_lexicons = list(extra_lexicons)
        self.use_doc_sents = use_doc_sents
        self.assess_ents = assess_ents
        self.spans_key = spans_key
        self.engine = get_engine(lexicons, rules_dir, self.extra_lexicons)
        self.link = bool(link or vocabulary is not None)
        self.vocabulary = vocabulary
        self.deduplicate = deduplicate
        # fail fast on a bad vocabulary directory; the index itself opens lazily
        self.linker = get_linker(vocabulary) if self.link else None
        self.error_handler: ErrorHandler = raise_error
        # span labels as StringStore hashes (char_span would add each label string per span)
        self._vocab = nlp.vocab
        self._labels = {level: nlp.vocab.strings.add(str(level)) for level in Level}

    def pipe(self, docs: Iterable[Doc], batch_size: int = _MAX_BATCH) -> Iterator[Doc]:
        """``nlp.pipe``'s path: the same Docs as calling the component on each, faster.

        Docs are taken from the tokenizer in batches (at most ``_MAX_BATCH``) before any is
        scanned; a Doc whose processing fails goes to the error handler (``nlp.set_error_handler``)
        and, as spaCy does for components without ``pipe``, is not yielded.
        """
        for batch in minibatch(docs, size=max(1, min(batch_size, _MAX_BATCH))):
            for doc in batch:
                try:
                    done = self(doc)
                except Exception as e:  # handed to the error handler, as spaCy does
                    self.error_handler(self.name, self, [doc], e)
                    continue
                yield done

    def get_error_handler(self) -> ErrorHandler:
        """The function ``pipe`` hands a failing Doc to (spaCy's ``raise_error`` by default)."""
        return self.error_handler

    def set_error_handler(self, error_handler: ErrorHandler) -> None:
        """Set by ``nlp.set_error_handler``: called with (name, component, [doc], exception)."""
        self.error_handler = error_handler

    def __call__(self, doc: Doc) -> Doc:
        texts = getattr(self.tokenizer, "texts", None)
        text = texts.get(doc) if texts is not None else None
        if text is None:
            text = doc.text
        text = check_text(text, "Doc text")  # lone surrogates: one policy for every entry point
        sents = None
        if self.use_doc_sents and doc.has_annotation("SENT_START"):
            sents = [(s.start_char, s.end_char) for s in doc.sents]
        pairs = run_pipeline(
            text,
            engine=self.engine,
            linker=self.linker,
            deduplicate=self.deduplicate,
            sentences=sents,
        )
        # JSON text, not dicts: see cuelex.extensions (medSpaCy's msgpack decoders)
        store_pairs(doc, pairs)
        if self.spans_key:
            # hashes are the same in every StringStore, but a Doc of another vocab needs the strings
            labels = self._labels if doc.vocab is self._vocab else {lv: str(lv) for lv in Level}
            spans = []
            for p in pairs:
                span = doc.char_span(
                    p.target_start, p.target_end, label=labels[p.level], alignment_mode="expand"
                )
                if span is not None:
                    spans.append(span)
            doc.spans[self.spans_key] = spans
        # doc.ents builds every entity span: look at the tags first
        ents = doc.ents if self.assess_ents and doc.has_annotation("ENT_IOB") else ()
        if ents:
            found = self.engine.assess(
                text, [(e.start_char, e.end_char) for e in ents], sentences=sents
            )
            doc.user_data[ASSESS_KEY] = encode(
                {
                    f"{a.start}:{a.end}": {
                        "level": a.level.value,
                        "cue": a.cue.model_dump(mode="json") if a.cue else None,
                    }
                    for a in found
                }
            )
        return doc


@Language.factory("cuelex", default_config=DEFAULT_CONFIG)
def make_cuelex(
    nlp: Language,
    name: str,
    lexicons: str | list[str] | None,
    rules_dir: str | None,
    extra_lexicons: list[str],
    use_doc_sents: bool,
    assess_ents: bool,
    spans_key: str | None,
    link: bool,
    vocabulary: str | None,
    deduplicate: bool,
) -> CuelexComponent:
    """spaCy factory: ``nlp.add_pipe("cuelex", config={...})``."""
    return CuelexComponent(
        nlp,
        name,
        lexicons=lexicons,
        rules_dir=rules_dir,
        extra_lexicons=extra_lexicons,
        use_doc_sents=use_doc_sents,
        assess_ents=assess_ents,
        spans_key=spans_key,
        link=link,
        vocabulary=vocabulary,
        deduplicate=deduplicate,
    )


def load(**config: object) -> Language:
    """A blank-English spaCy pipeline with the cuelex component (no model download).

    Keyword arguments are the component's config (``lexicons``, ``rules_dir``, ``extra_lexicons``,
    ``use_doc_sents``, ``assess_ents``, ``spans_key``, ``link``, ``vocabulary``, ``deduplicate``);
    unknown keys raise a ValueError naming them. ``vocabulary=PATH`` (an index from
    ``cuelex vocab build``) implies ``link=True``.
    """
    unknown = sorted(set(config) - set(DEFAULT_CONFIG))
    if unknown:
        raise ValueError(f"unknown cuelex config key(s) {unknown}; known: {sorted(DEFAULT_CONFIG)}")
    for key in ("lexicons", "rules_dir", "vocabulary"):
        if isinstance(config.get(key), Path):
            config[key] = str(config[key])
    if "extra_lexicons" in config:
        config["extra_lexicons"] = [str(p) for p in config["extra_lexicons"]]  # type: ignore[union-attr]
    nlp = spacy.blank("en")
    keeping = TextKeepingTokenizer(nlp.vocab)
    keeping.from_bytes(nlp.tokenizer.to_bytes())
    nlp.tokenizer = keeping
    nlp.add_pipe("cuelex", config=config)
    return nlp
