"""What the user typed in the search field, as an FTS5 query that cannot be a syntax error: every word
is quoted (so `AND`, `NEAR`, `*`, `:`, `^`, `(`, `-` and quotes are plain text), a part in double quotes
is a phrase, the last word typed is a prefix (results as you type). The words are also returned folded
(lower case, accents off) for marking them in the snippets."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

WORD = re.compile(r"\w+")
MAX_TERMS = 32  # a pasted paragraph is a long AND: its first words say enough


@dataclass(frozen=True)
class Query:
    match: str  # the FTS5 MATCH expression; "" when nothing searchable was typed
    terms: tuple[str, ...]  # folded words to mark, in the order typed
    prefix: str  # the folded last word when it is matched as a prefix ("" otherwise)


def fold(text: str) -> str:
    """Lower case without accents, as the index's tokenizer compares (unicode61, diacritics removed)."""
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(c for c in decomposed if not unicodedata.combining(c)).casefold()


def _quoted(words: list[str]) -> str:
    return '"' + " ".join(words) + '"'


def parse(text: str) -> Query:
    parts: list[str] = []
    terms: list[str] = []
    prefix = ""
    pieces = text.split('"')
    for index, piece in enumerate(pieces):
        words = WORD.findall(piece)
        if not words:
            continue
        phrase = index % 2 == 1 and index < len(pieces) - 1  # between a pair of quotes
        if phrase:
            parts.append(_quoted(words))
        else:
            parts.extend(_quoted([w]) for w in words)
        terms.extend(fold(w) for w in words)
    if not parts:
        return Query("", (), "")
    last_open = not text[-1:].isspace() and not text.endswith('"')
    if len(parts) > MAX_TERMS:
        parts, terms, last_open = parts[:MAX_TERMS], terms[:MAX_TERMS], False
    if last_open and parts[-1].count(" ") == 0:  # a word being typed: its completions match too
        parts[-1] += "*"
        prefix = terms[-1]
    return Query(" ".join(parts), tuple(dict.fromkeys(terms)), prefix)
