"""The reports' Markdown shows every text as written: checked against a CommonMark parser with
GitHub's tables (markdown-it-py), over texts made of the characters Markdown reads as markup."""

from __future__ import annotations

from hypothesis import example, given
from hypothesis import strategies as st
from markdown_it import MarkdownIt
from markdown_it.token import Token

from mvdd.spark.markdown import cell, code, fenced, prose

PARSER = MarkdownIt("commonmark").enable("table")

#: letters, blanks, line breaks, and every character that means something to Markdown
texts = st.text(alphabet=st.sampled_from(list("ab1 \t\n\r`|\\*_[]<>~#-+!&;=.():")), max_size=14)
#: a message's text as a paragraph keeps it: without leading or trailing blanks
messages = texts.map(lambda t: t.strip(" \t\r\n"))


def _lines(text: str) -> str:
    return text.replace("\r\n", "\n").replace("\r", "\n")


def _shown(children: list[Token]) -> str:
    """The text a reader sees: text as itself, ``<br>`` as a line break, anything else (an
    emphasis, a link, a code span) marked, so it cannot pass for text."""
    out = []
    for t in children:
        if t.type == "text":
            out.append(t.content)
        elif t.type == "html_inline" and t.content == "<br>":
            out.append("\n")
        else:
            out.append(f"<{t.type}:{t.content}>")
    return "".join(out)


def _code_shown(text: str) -> str:
    return text.replace("\n", "\\n").replace("\r", "\\r") or " "


@given(texts, messages, texts)
@example("a|b", "*x* | <b>y</b>", "`")
@example("", "1. first", " ` ")
@example("``", "# no heading", "a\\|b")
def test_a_table_row_keeps_its_cells_and_their_texts(name: str, message: str, other: str) -> None:
    doc = (
        "| shard | n | conflicts | other |\n|---|---|---|---|\n"
        f"| {cell(code(name))} | 7 | {cell(prose(message))} | {cell(code(other))} |\n"
    )
    tokens = PARSER.parse(doc)
    cells = [tokens[i + 1].children or [] for i, t in enumerate(tokens) if t.type == "td_open"]
    assert len(cells) == 4, doc
    assert [(t.type, t.content) for t in cells[0]] == [("code_inline", _code_shown(name))], doc
    assert _shown(cells[1]) == "7"
    assert _shown(cells[2]) == _lines(message), doc
    assert [(t.type, t.content) for t in cells[3]] == [("code_inline", _code_shown(other))], doc


@given(texts, messages)
@example("- x", "- not a list")
@example("a", "> not a quote")
@example("a", "2) not a list")
def test_a_list_item_keeps_its_name_and_message(name: str, message: str) -> None:
    doc = f"- {code(name)}: {prose(message)}\n"
    tokens = PARSER.parse(doc)
    assert [t.type for t in tokens] == [
        "bullet_list_open",
        "list_item_open",
        "paragraph_open",
        "inline",
        "paragraph_close",
        "list_item_close",
        "bullet_list_close",
    ], doc
    children = tokens[3].children or []
    assert (children[0].type, children[0].content) == ("code_inline", _code_shown(name))
    assert _shown(children[1:]) == (f": {_lines(message)}" if message else ":"), doc


@given(messages.filter(bool))
@example("- not a nested list")
@example("1. not a nested list")
@example("# not a heading")
@example("> not a quote")
@example("--- not a rule")
def test_a_message_that_opens_a_list_item_is_its_text(message: str) -> None:
    doc = f"- {prose(message)}\n- next\n"
    tokens = PARSER.parse(doc)
    inline = [t for t in tokens if t.type == "inline"]
    assert [t.type for t in tokens].count("list_item_open") == 2, doc
    assert [_shown(t.children or []) for t in inline] == [_lines(message), "next"], doc


@given(texts)
@example("```\nDROP TABLE t;\n```")
@example("a\r")
def test_a_code_block_holds_the_text_whatever_fences_it_holds(text: str) -> None:
    doc = "\n".join(["before", *fenced(text, "sql"), "after"]) + "\n"
    tokens = PARSER.parse(doc)
    blocks = [t for t in tokens if t.type == "fence"]
    assert len(blocks) == 1 and blocks[0].info == "sql", doc
    assert blocks[0].content == (_lines(text) + "\n" if text else ""), doc
    # the text after the block is a paragraph again
    assert tokens[-2].type == "inline" and tokens[-2].content == "after"
