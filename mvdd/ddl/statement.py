"""MySQL DDL text -> statements of steps: splitting, parsing with the mvdd dialect, and errors
that name the line, column and statement.

:func:`parse_statements` splits the text into statements (by the tokenizer's semicolons, so each
statement keeps its exact original text), parses each with the mvdd dialect, and turns the tree
into :mod:`~mvdd.ddl.step` values (the handlers are in :mod:`mvdd.ddl.parse`).

A statement mvdd does not model (``GRANT``, ``CREATE VIEW``, a ``Command`` fallback, DML) raises
:class:`~mvdd.errors.UnsupportedDDLError`, or, with ``skip_unsupported=True``, comes back with no
steps and the reason in ``Statement.skipped``. Malformed text raises
:class:`~mvdd.errors.DDLParseError` with the line, column and a snippet.
"""

from __future__ import annotations

import datetime as dt
import operator
import re
from collections.abc import Callable, Iterator, Sequence
from functools import partial

import attrs
from sqlglot import exp
from sqlglot.errors import ParseError, SqlglotError, TokenError
from sqlglot.tokens import Token, TokenType

from mvdd.ddl import dialect as d
from mvdd.ddl import step as s
from mvdd.ddl.dialect import DIALECT, DIALECTS, MvddMySQL, deep_stack, reading
from mvdd.ddl.name import Context, own_columns
from mvdd.ddl.parse import (
    HIDDEN_DDL,
    NOT_TABLES,
    OTHER_VERBS,
    PARTITIONING,
    bare_words,
    object_named,
    other_statement,
    statement_steps,
)
from mvdd.ddl.setting import (
    PASSED_OVER,
    PASSED_OVER_ONE,
    Settings,
    after_set,
    for_statement,
    session_of,
    written_in,
)
from mvdd.ddl.sqlmode import SqlMode
from mvdd.errors import DDLError, DDLParseError, MvddError, UnsupportedDDLError
from mvdd.model import Table
from mvdd.model.encoding import (
    ASCII_BASED,
    BEYOND_BMP,
    holds,
    python_codec,
    read_as,
    shown_text,
    statement_text,
    written_as,
)
from mvdd.model.frozen import builder
from mvdd.model.types import canonical_charset


@attrs.frozen
class Statement:
    """One statement of the input: its 1-based index, its exact text and its steps.

    ``skipped`` holds the reason when the statement was not DDL mvdd models and the caller asked
    to skip such statements; its ``steps`` are then empty. ``database`` holds a CREATE / ALTER /
    DROP DATABASE statement's change (such a statement has no table steps)."""

    index: int
    text: str
    steps: tuple[s.Step, ...]
    skipped: str | None = None
    database: s.DatabaseChange | None = None
    #: tables whose steps apply only if the table exists (``ALTER TABLE IF EXISTS``)
    if_exists: frozenset[str] = frozenset()
    #: ``ALTER TABLE … ORDER BY``: columns that must exist before the statement's changes
    ordered_by: tuple[s.OrderedBy, ...] = ()
    #: ``ALTER SEQUENCE``: tables that must be sequences (:class:`~mvdd.ddl.step.SequenceNamed`)
    sequences: tuple[str, ...] = ()
    #: a column's WITH / WITHOUT SYSTEM VERSIONING in an ALTER TABLE: tables that must be
    #: system-versioned (:class:`~mvdd.ddl.step.VersioningMarked`)
    versioned: tuple[str, ...] = ()
    #: ``USE database``: the default database of the statements after it in the text
    use: str | None = None
    #: the session the statement was read and applies in, where the text's ``SET`` statements
    #: or its own ``SET STATEMENT … FOR`` made it other than the text's first (None: that
    #: one); a ``SET``'s: the session of the statements after it (:mod:`mvdd.ddl.setting`)
    settings: Settings | None = None
    #: a skipped statement that may leave a catalog short of what its server did, which the
    #: catalog warns of: one that may run DDL unseen (``CALL``, ``EXECUTE``, a compound
    #: statement), or a ``SET`` whose session the statements after it lack
    hazard: bool = False
    #: ``FORCE``, ``OPTIMIZE``: tables the server defines anew (:class:`~mvdd.ddl.step.DefinedAnew`)
    defined_anew: tuple[s.DefinedAnew, ...] = ()

    @property
    def tables(self) -> tuple[str, ...]:
        """Tables the statement touches, in order of first mention (an ``ORDER BY``'s, a
        ``FORCE``'s or an ``OPTIMIZE``'s too, which may have no step)."""
        seen: dict[str, None] = {}
        for st in self.steps:
            seen.setdefault(st.table)
            if isinstance(st, s.RenameTable):
                seen.setdefault(st.to)
        if self.ordered_by or self.defined_anew:
            seen.update(dict.fromkeys(o.table for o in self.ordered_by))
            seen.update(dict.fromkeys(a.table for a in self.defined_anew))
        return tuple(seen)


_NONE: frozenset[str] = frozenset()
#: a Statement made at a fraction of its __init__'s cost (:mod:`mvdd.model.frozen`)
_statement = builder(Statement)

# --- splitting and parsing ---------------------------------------------------------------------

#: what a quoted string or name holds after its opening quote: any character but the quote,
#: a backslash escaping the next one in a string ('' and \' inside, as the tokenizer reads them)
_QUOTED_TEXT = {
    "'": re.compile(r"(?:[^'\\]|\\.)*", re.DOTALL),
    '"': re.compile(r'(?:[^"\\]|\\.)*', re.DOTALL),
    "`": re.compile(r"[^`]*"),
}
#: the same under NO_BACKSLASH_ESCAPES, where a backslash in a string is itself
_PLAIN_QUOTED_TEXT = {quote: re.compile(f"[^{quote}]*") for quote in _QUOTED_TEXT}
#: where :func:`executable` looks next: a quote, a comment's opening (``--`` opens one only
#: before a space or a control character, as the server and the tokenizer read it: ``1--1``
#: is ``1 - -1``)
_NOTABLE = re.compile(r"['\"`#]|/\*|--(?=[\x00-\x20]|\Z)")


def _passive(sql: str, at: int, backslash: bool = True) -> tuple[int, int, str] | None:
    """The first span of ``sql`` from ``at`` that is no statement text as the tokenizer reads
    it: a quoted string or name (its quotes included; '' and, if ``backslash`` escapes, \\'
    inside a string), or a comment (``/* … */``, or ``--`` or ``#`` to the end of the line):
    (start, end, what opens it); None: none. An unterminated one runs to the end."""
    found = _NOTABLE.search(sql, at)
    if found is None:
        return None
    start, opener = found.start(), found.group()
    quoted = (_QUOTED_TEXT if backslash else _PLAIN_QUOTED_TEXT).get(opener)
    if quoted is not None:
        inside = quoted.match(sql, start + 1)  # (it matches, if only the empty text)
        return start, min(len(sql), (inside.end() if inside is not None else len(sql)) + 1), opener
    end = sql.find("*/" if opener == "/*" else "\n", start + 2 if opener == "/*" else start)
    if end < 0:
        return start, len(sql), opener
    return start, end + (2 if opener == "/*" else 1), opener


def executable(sql: str, flavor: str | None = None, backslash: bool = True) -> str:
    """``sql`` with MySQL's executable comments opened where a server of ``flavor`` runs them
    (:func:`runs`; None: either server): ``/*! … */``, ``/*!50100 … */`` and MariaDB's
    ``/*M!100100 … */`` hold statement text (``SHOW CREATE`` and ``mysqldump`` write options
    that way), so their markers become spaces of the same length and the text between them is
    read; offsets into the text stay the same. A comment its server does not run stays one.

    >>> executable("CREATE DATABASE d /*!40100 DEFAULT CHARACTER SET latin1 */")
    'CREATE DATABASE d          DEFAULT CHARACTER SET latin1   '
    >>> executable("CREATE TABLE t (a INT /*!80023 INVISIBLE */)", "mariadb")
    'CREATE TABLE t (a INT                        )'

    The other comments become spaces too (their line breaks kept), as the server reads a
    comment: where a space may stand, so that the words around one are read as if a space
    stood between them (``PRIMARY /* key */ KEY``, which the tokenizer reads as one word).
    ``backslash``: a backslash escapes in a string (False: NO_BACKSLASH_ESCAPES).
    """
    if "/*" not in sql and "--" not in sql and "#" not in sql:
        return sql
    out = list(sql)
    i = 0
    while (span := _passive(sql, i, backslash)) is not None:
        start, i, opener = span
        if opener in _QUOTED_TEXT or (opener == "/*" and not sql.endswith("*/", start + 2, i)):
            continue  # a string or a name; an unterminated comment (the tokenizer's error)
        inside = _run_text(sql, start, i, flavor) if opener == "/*" else None
        if inside is None:
            # a comment (a plain one, one this server does not run, one to the line's end)
            out[start:i] = _spaces(sql[start:i])
            continue
        out[start:inside] = " " * (inside - start)
        out[i - 2 : i] = "  "
        i = inside  # the text inside is read as statement text
    return "".join(out)


def _run_text(sql: str, start: int, end: int, flavor: str | None) -> int | None:
    """Where the text of the comment ``sql[start:end]`` (``/* … */``) begins when it is an
    executable one a server of ``flavor`` runs (:func:`runs`), else None."""
    marker = next((m for m in ("M!", "!") if sql.startswith(m, start + 2)), None)
    if marker is None:
        return None
    inside, close = start + 2 + len(marker), end - 2
    digits = 0
    while inside + digits < close and digits < 6 and sql[inside + digits].isdigit():
        digits += 1
    # five or six digits are a version; fewer are the comment's text
    version = int(sql[inside : inside + digits]) if digits >= 5 else None
    if not runs(flavor, marker, version, digits):
        return None
    return inside + (digits if version is not None else 0)


#: the newest release of each server mvdd reads (MariaDB 11.x, MySQL 9.x): the exact release
#: of the server that ran a statement is not known here, so a versioned comment is taken as
#: run when any release of its server would run it
_NEWEST = {"mariadb": 119999, "mysql": 99999}


def runs(flavor: str | None, marker: str, version: int | None, digits: int = 5) -> bool:
    """Whether a server of ``flavor`` (None: either) runs the executable comment
    ``/*{marker}{version} … */`` (``version`` None: none written), as MariaDB 10.11 was seen
    to: MariaDB runs MySQL's ``/*!NNNNN`` before 5.7 only (50700 and later hold MySQL's own
    syntax: ``/*!80023 INVISIBLE */``), any other version up to its own release; MySQL runs
    its own up to its release, and MariaDB's ``/*M! … */`` never.

    >>> runs("mariadb", "!", 50700), runs("mysql", "!", 80023), runs("mysql", "M!", None)
    (False, True, False)
    >>> runs("mariadb", "M!", 999999, 6), runs(None, "!", 80023)
    (False, True)
    """
    if flavor is None:
        return any(runs(one, marker, version, digits) for one in _NEWEST)
    if marker == "M!" and flavor != "mariadb":
        return False
    if version is None:
        return True
    if flavor == "mariadb" and marker == "!" and digits == 5:
        return version < 50700
    return version <= _NEWEST[flavor]


_KIND = operator.attrgetter("token_type")


def _chunks(tokens: list[Token], text: str) -> Iterator[list[Token]]:
    """The tokens of each statement (the semicolons between them dropped), as the server
    splits a text of several: a stored program's body (``CREATE PROCEDURE … BEGIN …; …; END``)
    is one statement with its semicolons (:func:`_open_blocks`). And as the client reads its
    ``use`` command: a USE at a line's start is ended by its line (``use db`` needs no
    semicolon), the words after the database's name passed over; elsewhere it is the server's
    statement, which goes on to the next semicolon. A client command the text's reading left
    for it (:func:`client_delimited`: a backslash, its letter, and for ``\\u`` its name) is a
    statement of its own, where it stands (one in a statement runs before it is sent).
    ``text``: the one the tokens are of (read as :func:`_script_text` reads it)."""
    if (
        ";" not in text
        and "\\" not in text
        and (not tokens or tokens[0].token_type != TokenType.USE)
    ):  # one statement, no semicolon, no client command: found in C
        if tokens:
            yield tokens
        return
    chunk: list[Token] = []
    program = False  # (whether the chunk is a stored program's, once it has a semicolon)
    blocks, counted = _NO_BLOCKS, 0  # (its blocks as of its first ``counted`` tokens)
    ended = 0  # (the line of the semicolon that ended the statement before)
    command: list[Token] = []  # (a client command's tokens, as they come)
    for token in tokens:
        if command and len(command) == 1 and not _marks(command[0], token):
            chunk.append(command.pop())  # (a backslash of no command: the statement's)
        if command or token.token_type == TokenType.BACKSLASH:
            command.append(token)
            if len(command) == (3 if command[1:2] and command[1].text in _NAMED else 2):
                yield _client_tokens(command)
                command = []
            continue
        if chunk and token.line > chunk[0].line and _uses(chunk, ended):
            yield chunk[:2]  # (the client's use command, ended by its line)
            chunk = []
        if token.token_type == TokenType.SEMICOLON:
            if chunk and (program or _is_program(chunk)):
                blocks, counted = _open_blocks(chunk, counted, blocks), len(chunk)
                if blocks[0]:
                    program = True
                    chunk.append(token)  # (inside its body)
                    continue
            if chunk:
                yield chunk[:2] if _uses(chunk, ended) else chunk
            chunk, program, blocks, counted = [], False, _NO_BLOCKS, 0
            ended = token.line
        else:
            chunk.append(token)
    chunk.extend(command)  # (a backslash the text ends with)
    if chunk and program:
        # a body never closed (malformed, or a name the counting mistook for a block): its
        # statements as their semicolons end them, where the server's parser would fail it
        yield from _split(chunk)
    elif chunk:
        yield chunk[:2] if _uses(chunk, ended) else chunk


def _client_tokens(command: list[Token]) -> list[Token]:
    """A client command's marker (:func:`client_delimited`) as the statement it stands for:
    ``\\u db`` a ``USE db``, ``\\C name`` a ``SET NAMES name`` (the name right after the
    letter, or the token after it); the others as they are (:data:`CLIENT_UNREAD`)."""
    backslash, letter = command[0], command[1]
    words = _NAMED.get(letter.text[:1])
    if words is None:
        return command
    at = backslash.start
    if len(letter.text) > 1:  # (``\\udb``: the name glued to the letter)
        name = Token(TokenType.VAR, letter.text[1:], letter.line, letter.col, letter.start + 1)
    else:
        name = command[2]
    return [Token(kind, word, backslash.line, backslash.col, at, at) for kind, word in words] + [
        name
    ]


#: the statements the client commands that name something stand for (:func:`_client_tokens`)
_NAMED = {
    "u": ((TokenType.USE, "USE"),),
    "C": ((TokenType.SET, "SET"), (TokenType.VAR, "NAMES")),
}


def _marks(backslash: Token, token: Token) -> bool:
    """Whether a backslash and the token after it are a client command's marker
    (:func:`client_delimited`): its letter right after it."""
    return token.start == backslash.end + 1 and token.text[:1] in _MARKED


def _uses(chunk: list[Token], ended: int) -> bool:
    """Whether a statement's tokens are the client's ``use`` command: USE at the start of a
    line after the one the statement before ended on."""
    return chunk[0].token_type == TokenType.USE and chunk[0].line > ended


def _split(tokens: list[Token]) -> Iterator[list[Token]]:
    """The tokens between semicolons."""
    chunk: list[Token] = []
    for token in tokens:
        if token.token_type == TokenType.SEMICOLON:
            if chunk:
                yield chunk
            chunk = []
        else:
            chunk.append(token)
    if chunk:
        yield chunk


#: what a CREATE or ALTER names that is a stored program, whose body holds statements
_PROGRAMS = frozenset({"PROCEDURE", "FUNCTION", "TRIGGER", "EVENT", "PACKAGE"})


def _is_program(chunk: list[Token]) -> bool:
    """Whether a statement's tokens are a stored program's definition (``CREATE [DEFINER = …]
    PROCEDURE | FUNCTION | TRIGGER | EVENT | PACKAGE``, ``ALTER EVENT … DO``) or a compound
    statement (``BEGIN NOT ATOMIC``, ``label: BEGIN``): the first word naming a kind of object
    decides (:func:`~mvdd.ddl.parse.object_named`)."""
    first = chunk[0].token_type
    if first == TokenType.BEGIN:  # (BEGIN alone, or BEGIN WORK, starts a transaction)
        return len(chunk) > 1 and chunk[1].token_type == TokenType.NOT
    if len(chunk) > 2 and chunk[1].token_type == TokenType.COLON:
        return chunk[2].token_type == TokenType.BEGIN
    return first in (TokenType.CREATE, TokenType.ALTER) and object_named(chunk[1:]) in _PROGRAMS


#: the words of a stored program's statements that open a block its END closes, where a
#: statement starts (:data:`_STARTS`; CASE and BEGIN anywhere): ``END IF``, ``END LOOP`` …
#: name the block they close
_OPENERS = frozenset({"IF", "LOOP", "WHILE", "REPEAT", "FOR"})
#: the tokens after which a statement of a program's body starts: a semicolon, a label's colon,
#: and the words that lead into a body
_STARTS = frozenset({";", ":", "BEGIN", "THEN", "ELSE", "DO", "LOOP", "REPEAT", "ROW"})


#: how a stored program's body stands after some of its tokens: the blocks open, the
#: parentheses open, the word before (:func:`_open_blocks`)
_Blocks = tuple[int, int, str]
_NO_BLOCKS: _Blocks = (0, 0, "")


def _open_blocks(chunk: list[Token], start: int, blocks: _Blocks) -> _Blocks:
    """How a stored program's body stands after its tokens, from how it stood after the first
    ``start`` of them (each read once, however many statements the body holds): BEGIN and
    CASE (a CASE expression ends with END as the statement does) open a block outside
    parentheses, IF, LOOP, WHILE, REPEAT and FOR where a statement starts (IF when a THEN
    follows its condition, and LOOP and REPEAT when no parenthesis does: not the functions of
    those names), and END closes one (the word after it naming the block closed)."""
    depth, nested, before = blocks
    for i in range(start, len(chunk)):
        token = chunk[i]
        kind, word = token.token_type, token.text.upper()
        nested += (kind == TokenType.L_PAREN) - (kind == TokenType.R_PAREN)
        if nested:  # (a parameter list, an expression's parentheses: no block there)
            before = word
            continue
        if kind == TokenType.BEGIN or (kind == TokenType.CASE and before != "END"):
            depth += 1
        elif kind == TokenType.END:
            depth -= depth > 0
        elif word in _OPENERS and before in _STARTS and kind != TokenType.IDENTIFIER:
            if word == "IF":
                depth += _then_follows(chunk, i + 1)
            elif word in ("LOOP", "REPEAT"):
                after = chunk[i + 1] if i + 1 < len(chunk) else None
                depth += after is None or after.token_type != TokenType.L_PAREN
            else:
                depth += 1
        before = word if kind != TokenType.IDENTIFIER else ""
    return depth, nested, before


def _then_follows(chunk: list[Token], start: int) -> bool:
    """Whether an IF at ``start`` is the statement (its condition, outside parentheses, ends
    at THEN) rather than the function."""
    nested = 0
    for token in chunk[start:]:
        kind = token.token_type
        nested += (kind == TokenType.L_PAREN) - (kind == TokenType.R_PAREN)
        if nested == 0 and kind in (TokenType.THEN, TokenType.SEMICOLON, TokenType.END):
            return kind == TokenType.THEN
    return False


@attrs.frozen
class _Command:
    """A mysql client's command (:data:`_CLIENT`)."""

    #: its one-letter form after a backslash
    letter: str
    #: whether the words after it are its own
    params: bool
    #: what it does to what the client sends (:data:`_CLIENT`)
    what: str
    #: whether it is one too where a statement of its long name (and words) ends at the
    #: delimiter (``warnings;``): the client's ``go``, ``ego``, ``quit`` and ``exit`` are
    #: not (sent to the server, which refuses them), nor ``edit``
    statement: bool = True


#: the mysql client's commands (its ``commands`` table), by their long name: what each does to
#: what the client sends (:func:`client_delimited`): ``go`` sends the statement so far,
#: ``clear`` drops it, ``print`` prints it, ``quit`` ends the text (the statement so far
#: sent), ``delimiter`` sets what ends the statements after it, ``use`` makes a database the
#: default of the statements after it, ``names`` is its ``SET NAMES`` (the charset of the
#: bytes after it), ``none`` changes nothing it sends (its output, its prompt, its pager, its
#: help …), and ``unread`` what mvdd does not follow (:data:`CLIENT_UNREAD`)
_CLIENT: dict[str, _Command] = {
    "?": _Command("?", True, "none"),
    "help": _Command("h", True, "none"),
    "clear": _Command("c", False, "clear"),
    "connect": _Command("r", True, "unread"),
    "delimiter": _Command("d", True, "delimiter"),
    "edit": _Command("e", False, "none", statement=False),
    "ego": _Command("G", False, "go", statement=False),
    "exit": _Command("q", False, "quit", statement=False),
    "go": _Command("g", False, "go", statement=False),
    "nopager": _Command("n", False, "none"),
    "notee": _Command("t", False, "none"),
    "nowarning": _Command("w", False, "none"),
    "pager": _Command("P", True, "none"),
    "print": _Command("p", False, "print"),
    "prompt": _Command("R", True, "none"),
    "quit": _Command("q", False, "quit", statement=False),
    "rehash": _Command("#", False, "none"),
    "source": _Command(".", True, "unread"),
    "status": _Command("s", False, "none"),
    "system": _Command("!", True, "unread"),
    "tee": _Command("T", True, "none"),
    "use": _Command("u", True, "use"),
    "warnings": _Command("W", False, "none"),
    "charset": _Command("C", True, "names"),
}
#: the same by their one-letter form
_CLIENT_LETTERS = {command.letter: command for command in _CLIENT.values()}
#: why mvdd does not follow a client command of :data:`_CLIENT` (``unread``), by its letter: each
#: may leave a catalog short of what the script did (a catalog that passes over it warns)
CLIENT_UNREAD = {
    "r": "the mysql client's connect (\\r) starts a new session, whose settings (its sql_mode, "
    "its charset …) mvdd does not follow",
    ".": "the mysql client's source (\\.) runs another file's statements, which mvdd does not read",
    "!": "the mysql client's system (\\!) runs a shell command, which may run DDL mvdd does not "
    "see",
}
#: the refusals of :data:`CLIENT_UNREAD`: a skipped statement's hazard (:attr:`Statement.hazard`)
_CLIENT_HAZARDS = frozenset(CLIENT_UNREAD.values())
#: the letters of the client commands :func:`client_delimited` leaves a marker of
_MARKED = frozenset({*_NAMED, *CLIENT_UNREAD})
#: the first letters of the client commands' long names
_CLIENT_INITIALS = frozenset(name[0] for name in _CLIENT)
#: a line's first word that is a client command's long name (:data:`_CLIENT`; any case)
_CLIENT_WORD = re.compile(
    rf"^[ \t]*({'|'.join(map(re.escape, sorted(_CLIENT, key=len, reverse=True)))})(?![A-Za-z])",
    re.MULTILINE | re.IGNORECASE,
)
#: a statement's first word that may be a client command's long name (:data:`_CLIENT`)
_CLIENT_HEAD = re.compile(r"\s*([A-Za-z]+|\?)")
#: a backslash and a letter of a client command (outside strings, names and comments)
_SLASH_COMMAND = re.compile(rf"\\[{re.escape(''.join(_CLIENT_LETTERS))}]")
#: the name a ``\u`` or ``\C`` command's marker keeps (:func:`client_delimited`): one the
#: tokenizer reads
_COMMAND_NAME = re.compile(r"[ \t]*([A-Za-z0-9_$]+|`[^`\n]+`|'[^'\\\n]*'|\"[^\"\\\n]*\")")


def client_delimited(text: str, backslash: bool = True, delimiter: str = ";") -> str | None:
    """A script's text with the mysql client's commands read (:data:`_CLIENT`), as the client
    does before it sends each statement (the server never sees them). A command's long name
    is one where a statement starts, as its line's first word (``delimiter //``,
    ``warnings``, ``use db``: any case; not where its line holds the delimiter, unless it is
    ``delimiter``, nor with words after it a command does not take); its one letter after a
    backslash anywhere outside strings, names and comments (``\\g``, ``\\u db``), its words
    running to the delimiter, which it takes, or the line's end. ``DELIMITER x`` makes ``x``
    end the statements after it, outside strings, names and comments (``END;;``, ``END //``,
    ``END$$``); ``\\g`` ends a statement, ``\\c`` drops it, ``\\q`` ends the text. Each
    command and each delimiter becomes a semicolon and spaces (a dropped statement spaces),
    so offsets stay the same and the server's own splitting follows (a stored program's body
    whole); a ``use db`` line stays for the statement reader, which ends it at its line, and
    a command the reader must meet (``\\u db``, ``\\C name``, and those mvdd does not
    follow, :data:`CLIENT_UNREAD`) becomes a backslash, its letter and spaces (``\\u`` and
    ``\\C`` keeping their name), a statement of its own (:func:`_client_tokens`). None: the
    text has no such command. ``backslash``: as :func:`executable`'s; ``delimiter``: the one a
    command before the text set.

    >>> client_delimited("DELIMITER //\\nCREATE PROCEDURE p() BEGIN SELECT 1; END//\\nDELIMITER ;")
    ';           \\nCREATE PROCEDURE p() BEGIN SELECT 1; END; \\n;          '
    >>> client_delimited("warnings\\nsource a.sql\\n\\\\u db -- the rest of its line is its own")
    '        \\n\\\\.          \\n\\\\u db                                '
    """
    slashes = [m.start() for m in _SLASH_COMMAND.finditer(text)] if "\\" in text else []
    if "\n" not in text and delimiter == ";" and not slashes:
        if text.lstrip()[:1].lower() not in _CLIENT_INITIALS:
            return None  # (a text of one line: a command only at its start)
        first = _CLIENT_WORD.match(text)
        if first is None or first.group(1).lower() not in _CLIENT:
            return None
    commands = [
        (m.start(1), name)
        for m in _CLIENT_WORD.finditer(text)
        if (name := m.group(1).lower()) in _CLIENT
    ]
    if not commands and not slashes and delimiter == ";":
        return None
    code = bytearray(b"\x01") * len(text)  # 0: a character of a string, a name or a comment
    i = 0
    while (span := _passive(text, i, backslash)) is not None:
        start, i, _ = span
        code[start:i] = bytes(i - start)
    out = list(text)
    changed = False
    done, at = 0, 0  # (done: where the last statement ended)
    while True:
        found = text.find(delimiter, at)
        while found >= 0 and code.find(0, found, found + len(delimiter)) >= 0:
            found = text.find(delimiter, found + 1)  # (inside a string, a name or a comment)
        command, name = commands[0] if commands else (None, "")
        slash = slashes[0] if slashes else None
        if (
            slash is not None
            and (found < 0 or slash < found)
            and (command is None or slash < command)
        ):
            slashes.pop(0)
            if slash < at or not code[slash]:
                continue  # (in a string, a name or a comment, or a text a command cleared)
            changed = True
            lettered = _CLIENT_LETTERS[text[slash + 1]]
            what = lettered.what
            end = slash + 2
            if lettered.params:  # (its words: to the delimiter, which it takes, or the line's end)
                stop = text.find("\n", end)
                stop = len(text) if stop < 0 else stop
                cut = text.find(delimiter, end, stop)
                end = stop if cut < 0 else cut + len(delimiter)
            if what == "quit":  # (the statement before it sent, nothing after it read)
                out[slash:] = _spaces(text[slash:])
                return "".join(out)
            if what == "clear":  # (the statement so far dropped)
                out[done:slash] = _spaces(text[done:slash])
            out[slash:end] = _client_marker(text, slash, end, lettered, 2)
            at = end
            if what == "delimiter":
                words = text[slash + 2 : end].split()
                delimiter = words[0] if words else delimiter
            if what in ("go", "clear", "delimiter") or not any(
                code[j] and not text[j].isspace() for j in range(done, slash)
            ):
                done = at  # (what it sent ended, or nothing was there: a statement starts)
            continue
        if command is not None and (found < 0 or command < found):
            commands.pop(0)
            end = text.find("\n", command)
            end = len(text) if end < 0 else end
            named = _CLIENT[name]
            rest = text[command + len(name) : end]
            if (
                rest[:1] not in ("", " ", "\t", "\r")
                or not code[command]
                or any(code[j] and not text[j].isspace() for j in range(done, command))
                or "\\g" in rest
                or (delimiter in rest and named.what != "delimiter")
                or (rest.strip() and not named.params)
            ):
                continue  # in a comment, a word of a statement, or no command (the server's)
            changed = True
            if named.what == "delimiter":
                words = rest.split()
                delimiter = words[0] if words else delimiter
            if named.what == "quit":
                out[command:] = _spaces(text[command:])
                return "".join(out)
            if named.what != "use" or not rest.strip():  # (a use: the reader ends it at its line)
                out[command:end] = _client_marker(text, command, end, named, len(name))
            done = at = end
            continue
        if found < 0:
            return "".join(out) if changed or delimiter != ";" else None
        word = _CLIENT_HEAD.match(text, done, found)
        if word is not None and (name := word.group(1).lower()) in _CLIENT and name != "delimiter":
            # a statement that is a command's long name (and its words): the client's command
            named, start = _CLIENT[name], word.start(1)
            rest = text[word.end() : found]
            said = rest.strip()
            if named.statement and rest[:1] in ("", " ", "\t") and (named.params or not said):
                changed = True
                if named.what == "quit":
                    out[start:] = _spaces(text[start:])
                    return "".join(out)
                if named.what != "use" or not said:  # (a use: as the server's USE reads it)
                    out[start:found] = _client_marker(text, start, found, named, len(name))
        if delimiter != ";":
            changed = True
            out[found : found + len(delimiter)] = ";" + " " * (len(delimiter) - 1)
        done = at = found + len(delimiter)


def _client_marker(text: str, start: int, end: int, command: _Command, head: int) -> str:
    """What :func:`client_delimited` reads a client command of ``text[start:end]`` (its name
    or its letter the first ``head`` characters) as: a semicolon and spaces (what the client
    sent so far ended), spaces, or a backslash and its letter and spaces
    (:data:`CLIENT_UNREAD`; ``\\u`` and ``\\C`` with the name they keep)."""
    span = text[start:end]
    if command.what == "unread":
        return "\\" + command.letter + _spaces(span[2:])
    if command.what in ("use", "names"):  # (no name: the client says so)
        name = _COMMAND_NAME.match(text, start + head, end)
        if name is None:
            return _spaces(span)
        gap = (
            _spaces(text[start + 2 : name.start(1)])
            if head != 2
            else text[start + 2 : name.start(1)]
        )
        kept = gap + name.group(1)
        return "\\" + command.letter + kept + _spaces(span[2 + len(kept) :])
    if command.what in ("go", "delimiter"):
        return ";" + _spaces(span[1:])
    return _spaces(span)  # (print, clear, none)


#: the tokens of the verbs of DDL (no statement of :data:`OTHER_VERBS` starts with one)
_DDL_VERB_TOKENS = frozenset({TokenType.ALTER, TokenType.CREATE, TokenType.DROP, TokenType.RENAME})
#: a statement's first word, after the spaces before it
_FIRST_WORD = re.compile(r"\s*([A-Za-z]+)")


def rows_blanked(text: str, backslash: bool = True) -> str:
    """``text`` (its comments spaces: :func:`executable`) with each statement that is no DDL
    and ends with a semicolon (a dump's INSERTs, most of its text: :data:`OTHER_VERBS`, but a
    BEGIN, which may open a compound statement) blanked but for its first word, and a comma in
    place of its last character: offsets stay the same, the statement is still one (its text
    whole, its index and its refusal as before), and the tokenizer reads spaces where it read
    rows, several times faster. A statement after the last semicolon stays whole (an
    unterminated string there is the tokenizer's error). ``backslash``: as
    :func:`executable`'s.

    >>> rows_blanked("INSERT INTO t VALUES ('a;b'); DROP TABLE t; DO 1")
    'INSERT                     ,; DROP TABLE t; DO 1'
    """
    if text.count(";") < 2:
        return text
    parts: list[str] = []
    kept = start = at = 0  # (kept: the text up to here is in parts; start: the statement's)
    span = _passive(text, 0, backslash)
    while (end := text.find(";", at)) >= 0:
        if span is not None and span[0] < end:  # (a semicolon in a string or a name)
            at = span[1]
            span = _passive(text, at, backslash)
            continue
        word = _FIRST_WORD.match(text, start, end)
        if word is not None and word.group(1).upper() in _BLANKED:
            last = len(text[word.end() : end].rstrip()) + word.end() - 1
            if last >= word.end():
                parts += (text[kept : word.end()], _spaces(text[word.end() : last]), ",")
                kept = last + 1
        start = at = end + 1
    return "".join([*parts, text[kept:]]) if parts else text


def _spaces(text: str) -> str:
    """``text`` as spaces, its line breaks kept (the lines of what follows stay theirs)."""
    return _NOT_LINE_BREAK.sub(" ", text)


_NOT_LINE_BREAK = re.compile(r"[^\n]")


#: the statements :func:`rows_blanked` blanks
_BLANKED = OTHER_VERBS - {"BEGIN"}


def split_statements(sql: str) -> list[str]:
    """The statements of a text, each exactly as written (comments between them dropped), as
    the server and its client split a script: a stored program's body whole, a ``DELIMITER``
    command's delimiter read (:func:`client_delimited`), and the text after a ``SET`` of the
    sql_mode that changes its tokens (``NO_BACKSLASH_ESCAPES``, ``ANSI_QUOTES``) read in it, as
    :func:`iter_statements` reads it (a SET it cannot follow changes nothing here).

    >>> split_statements("CREATE TABLE a (x INT); -- note\\nDROP TABLE a;")
    ['CREATE TABLE a (x INT)', 'DROP TABLE a']
    """
    sql = _without_bom(sql)
    opened = _script_text(sql, None, DIALECT)
    tokens, failed = _tokens_from(opened, 0, DIALECT, sql)
    first = now = Settings()
    out: list[str] = []
    chunks = _chunks(tokens, opened)
    while (chunk := next(chunks, None)) is not None:
        out.append(sql[chunk[0].start : chunk[-1].end + 1])
        if chunk[0].token_type != TokenType.SET or _sets_one_statement(chunk):
            continue
        dialect = DIALECT if now.sql_mode is None else reading(now.sql_mode)
        try:
            trees = dialect.parser().parse(chunk, opened)
            if len(trees) != 1 or not isinstance(trees[0], exp.Set):
                continue
            after = after_set(trees[0], now, first, passed=[])
        except (MvddError, SqlglotError):
            continue  # (a SET the server refuses, or mvdd cannot read: the session as it was)
        anew = _read_anew(sql, opened, chunk, now.sql_mode, after.sql_mode, None)
        now = after
        if anew is not None:
            opened, tokens, failed = anew
            chunks = _chunks(tokens, opened)
    if failed is not None:
        raise _token_error(failed, sql)
    return out


def _without_bom(sql: str) -> str:
    """A text with the byte order mark it may start with a space, as the client skips it (a
    file an editor saved as UTF-8 with one)."""
    return " " + sql[1:] if sql.startswith("\ufeff") else sql


def _script_text(sql: str, flavor: str | None, dialect: MvddMySQL, delimiter: str = ";") -> str:
    """A text read as a script, of the same length: its executable comments opened as a
    server of ``flavor`` runs them and its other comments spaces (:func:`executable`), its
    client's DELIMITER commands read (:func:`client_delimited`; ``delimiter``: the one a
    command before the text set), its rows not (:func:`rows_blanked`), each as ``dialect``
    reads strings."""
    backslash = _backslash(dialect)
    opened = executable(sql, flavor, backslash)
    delimited = client_delimited(opened, backslash, delimiter)
    return rows_blanked(opened if delimited is None else delimited, backslash)


def _backslash(dialect: MvddMySQL) -> bool:
    """Whether a backslash escapes in a string as ``dialect`` reads it (not under
    NO_BACKSLASH_ESCAPES)."""
    return "\\" in dialect.tokenizer_class.STRING_ESCAPES


def statement_words(
    sql: str, sql_mode: SqlMode | str | int | None = None
) -> tuple[str, tuple[str, ...]]:
    """The first keyword of a statement (upper case) and the names it mentions (identifiers
    and other words, as written, read under the session's ``sql_mode``): enough to tell
    whether a statement that does not parse, or is not DDL, concerns some table.

    MariaDB's ``SET STATEMENT … FOR statement`` is that statement's:

    >>> statement_words("SET STATEMENT sql_mode='' FOR insert into t values (1)")
    ('INSERT', ('into', 't', 'values'))
    """
    verb, tokens = _statement_tokens(sql, sql_mode)
    names = tuple(
        t.text
        for t in tokens
        if t.token_type in (TokenType.IDENTIFIER, TokenType.VAR) or t.text.isidentifier()
    )
    return verb, names


#: an XA transaction's id: (formatID, gtrid, bqual) (:mod:`mvdd.binlog.xa`)
Xid = tuple[int, bytes, bytes]
#: the parts of an xid as the statements write them, by token: its bytes
_XID_PARTS: dict[TokenType, Callable[[str], bytes]] = {
    TokenType.HEX_STRING: bytes.fromhex,
    TokenType.STRING: lambda text: text.encode(),
    TokenType.BIT_STRING: lambda text: (
        int(text, 2).to_bytes((len(text) + 7) // 8, "big") if text else b""
    ),
}
#: the default formatID of an xid that names none
_FORMAT_ID = 1


def xa_statement(text: str) -> tuple[str, Xid | None]:
    """What an ``XA …`` statement does (``START``, ``BEGIN``, ``END``, ``PREPARE``, ``COMMIT``,
    ``ROLLBACK``, ``RECOVER``) and the id it names (None: none, or one not read).

    >>> xa_statement("XA COMMIT X'7831',X'',1")
    ('COMMIT', (1, b'x1', b''))
    >>> xa_statement("XA ROLLBACK 'a', 'b', 7")
    ('ROLLBACK', (7, b'a', b'b'))
    """
    try:
        tokens = DIALECT.tokenize(text)
    except TokenError:
        return "", None
    if len(tokens) < 2 or tokens[0].text.upper() != "XA":
        return "", None
    return tokens[1].text.upper(), _xid(tokens[2:])


def _xid(tokens: list[Token]) -> Xid | None:
    parts: list[bytes] = []
    format_id = _FORMAT_ID
    for i, token in enumerate(tokens):
        if i % 2 == 1:  # (the commas between the parts)
            if token.token_type != TokenType.COMMA:
                break
            continue
        read = _XID_PARTS.get(token.token_type)
        if read is not None and len(parts) < 2:
            parts.append(read(token.text))
        elif token.token_type == TokenType.NUMBER and len(parts) == 2:
            format_id = int(token.text)
            break
        else:
            break
    if not parts:
        return None
    return (format_id, parts[0], parts[1] if len(parts) > 1 else b"")


#: the statements that change no table (privileges, caches, plugins)
_NOT_TABLE_VERBS = frozenset({"GRANT", "REVOKE", "FLUSH", "INSTALL", "UNINSTALL"})
#: what follows SET in a statement that changes no table (a password, a role)
_SET_NOT_TABLES = frozenset({"PASSWORD", "ROLE", "DEFAULT"})


def not_a_table(sql: str, sql_mode: SqlMode | str | int | None = None) -> str | None:
    """The kind of object a statement is about when it holds no rows and no table's schema (a
    view, a trigger, a routine, an event, a user, a role, a server), or its verb when it
    changes no table at all (GRANT, REVOKE, FLUSH, INSTALL, UNINSTALL, SET PASSWORD or ROLE),
    else None: the first of the words naming a kind after its verb, read under its session's
    ``sql_mode``.

    >>> not_a_table("CREATE DEFINER=`u`@`h` SQL SECURITY DEFINER VIEW v AS SELECT 1 AS table")
    'VIEW'
    >>> not_a_table("CREATE TABLE view (a INT)"), not_a_table("GRANT SELECT ON db.* TO u")
    (None, 'GRANT')
    """
    verb, words = _statement_tokens(sql, sql_mode)
    if verb in _NOT_TABLE_VERBS:
        return verb
    if verb == "SET" and words and words[0].text.upper() in _SET_NOT_TABLES:
        return f"SET {words[0].text.upper()}"
    if verb not in ("CREATE", "ALTER", "DROP", "RENAME"):
        return None
    kind = object_named(words)
    return kind if kind in NOT_TABLES else None


def _statement_tokens(sql: str, sql_mode: SqlMode | str | int | None) -> tuple[str, list[Token]]:
    """A statement's first keyword and its tokens after it (MariaDB's ``SET STATEMENT … FOR``
    left out), as :func:`statement_words` reads them."""
    try:
        dialect = DIALECT if sql_mode is None else reading(SqlMode.of(sql_mode))
    except DDLError:  # (a mode with a bit no mode has: its words read as the default's)
        dialect = DIALECT
    try:
        tokens = _own_tokens(dialect.tokenize(executable(sql, backslash=_backslash(dialect))))
    except TokenError:
        return "", []
    if not tokens:
        return "", []
    return tokens[0].text.upper(), tokens[1:]


def _own_tokens(tokens: list[Token]) -> list[Token]:
    """A statement's tokens, MariaDB's ``SET STATEMENT … FOR`` left out."""
    if (
        len(tokens) > 1
        and tokens[0].token_type == TokenType.SET
        and tokens[1].token_type == TokenType.VAR
        and tokens[1].text.upper() == "STATEMENT"
    ):
        return _after_for(tokens)
    return tokens


def _after_for(tokens: list[Token]) -> list[Token]:
    """The tokens after the first FOR outside parentheses (SET STATEMENT's statement)."""
    depth = 0
    for i, t in enumerate(tokens):
        depth += (t.token_type == TokenType.L_PAREN) - (t.token_type == TokenType.R_PAREN)
        if depth == 0 and t.token_type == TokenType.FOR:
            return tokens[i + 1 :]
    return tokens


def _parse_error(err: ParseError, sql: str) -> DDLParseError:
    info = err.errors[0] if err.errors else {}
    message = info.get("description") or str(err).splitlines()[0]
    snippet = (info.get("start_context", "") + info.get("highlight", ""))[-40:] or None
    return DDLParseError(
        f"cannot parse: {message}", line=info.get("line"), col=info.get("col"), snippet=snippet
    )


def _token_error(err: TokenError, sql: str) -> DDLParseError:
    # TokenError knows the span of its context snippet; the trouble is at its end
    end = getattr(err, "end", None)
    at = min(end, len(sql) - 1) if isinstance(end, int) and sql else 0
    line = sql.count("\n", 0, at) + 1
    col = at - (sql.rfind("\n", 0, at) + 1) + 1
    start = getattr(err, "start", None)
    snippet = sql[start if isinstance(start, int) else max(0, at - 40) : at + 1][-40:]
    return DDLParseError(
        "cannot tokenize: unterminated string, comment or identifier, or a character MySQL "
        "does not allow here",
        line=line,
        col=col,
        snippet=snippet,
    )


def iter_statements(
    sql: str | bytes,
    *,
    skip_unsupported: bool = False,
    database: str | None = None,
    default: str | None = None,
    charsets: Callable[[str | None], tuple[str, str] | None] | None = None,
    replica: bool = False,
    flavor: str | None = None,
    charset: str | None = None,
    sql_mode: SqlMode | str | int | None = None,
    time_zone: dt.tzinfo | None = None,
    lower_names: bool = False,
    explicit_defaults_for_timestamp: bool = True,
    server_collation: str | None = None,
    connection_charset: str | None = None,
    context: Context | None = None,
) -> Iterator[Statement]:
    """Statements of a text one at a time, each parsed only when reached, so a caller that
    executes them in turn commits the statements before a bad one (the text is tokenized whole
    first: an unterminated string or comment fails it all). Arguments as :func:`parse_statements`;
    ``charsets(database)`` gives a database's default (charset, collation) when known;
    ``replica``: the statements already ran on their server, whose rules build a CREATE
    TABLE's table (:class:`~mvdd.ddl.rules.Rules`); ``flavor``: that server's, when known;
    ``charset``: the charset the text was written in, when not UTF-8 (see
    :func:`literal_bytes`); ``sql_mode``: the session's the text was written under, its words
    or its bits (:class:`~mvdd.ddl.sqlmode.SqlMode`; None: the default mode's grammar);
    ``time_zone``: the session's, when not UTC (a TIMESTAMP's literal DEFAULT is read in it:
    :mod:`mvdd.model.zone`); ``lower_names``: its server keeps table and database names in
    lower case (``lower_case_table_names``), and a name in any case is that one;
    ``explicit_defaults_for_timestamp``: the session's (False: MySQL 5.7's legacy TIMESTAMPs,
    NOT NULL and the first one CURRENT_TIMESTAMP's); ``server_collation``: the session's
    ``collation_server``, when known; ``connection_charset``: its ``character_set_connection``,
    where it is not the client's ``charset`` (a string literal is text of it: a binary
    column's DEFAULT its bytes in it, a CAST to CHAR it). A ``SET`` in the text changes the
    session the statements after it are read in as on the server (:mod:`mvdd.ddl.setting`;
    each statement's :attr:`Statement.settings` says it, where it is not the text's first):
    one that changes how it tokenizes (ANSI_QUOTES, NO_BACKSLASH_ESCAPES …) has the text after
    it read anew, so a string left open there fails at it, after the statements before it.
    ``context``: the :func:`statement_context` of these same arguments, when the caller keeps
    one (a catalog keeps the one of its last text: a context costs about a microsecond to
    make). ``sql`` may be a script's bytes: each statement is then read in the client charset
    of its moment (``charset`` at its start, then as its SET NAMES and character_set_client
    say; :meth:`~mvdd.catalog.Catalog.execute`).
    """
    client = canonical_charset(charset) if charset is not None else "utf8mb4"
    raw = isinstance(sql, bytes) and client in ASCII_BASED
    if isinstance(sql, bytes):
        # its statements read from their bytes, each in the client charset of its moment (in
        # a charset whose bytes split otherwise, all in the one it starts in)
        sql = sql.decode("utf-8", "surrogateescape") if raw else _text_of(sql, client)
    elif not isinstance(sql, str):
        raise DDLError(f"SQL must be text or its bytes, not {type(sql).__name__}")
    sql = _without_bom(sql)
    mode = SqlMode.of(sql_mode, flavor) if sql_mode is not None else None
    written = sql
    if not raw and charset is not None and BEYOND_BMP.search(sql) and client == "utf8mb3":
        # a utf8mb3 client's character beyond the BMP: a ? for each of its bytes, as the
        # server reads it (an ENUM's member 'x😀' is 'x????')
        sql = read_as(sql.encode(), "utf8mb3") or sql
    if context is not None:
        ctx = context
    else:
        ctx = statement_context(
            database=database,
            default=default,
            charsets=charsets,
            replica=replica,
            flavor=flavor,
            charset=charset,
            sql_mode=mode,
            time_zone=time_zone,
            lower_names=lower_names,
            explicit_defaults_for_timestamp=explicit_defaults_for_timestamp,
            connection_charset=connection_charset,
        )
    dialect = DIALECT if mode is None else reading(mode)
    opened = _script_text(sql, flavor, dialect)
    tokens, failed = _tokens_from(opened, 0, dialect, sql)
    # the session the text's SET statements change (:mod:`mvdd.ddl.setting`): (now, first),
    # made at the first SET
    settings: tuple[Settings, Settings] | None = None
    chunks = _chunks(tokens, opened)
    index = 0
    while True:
        chunk = next(chunks, None)
        if chunk is None:
            if failed is not None:  # (no SET made the trouble's text read otherwise)
                raise _token_error(failed, sql)
            return
        index += 1
        sets = chunk[0].token_type == TokenType.SET
        if sets and settings is None:
            first = Settings(
                sql_mode=mode,
                time_zone=ctx.session.time_zone,
                explicit_defaults_for_timestamp=not ctx.legacy_timestamps,
                collation_server=server_collation,
                client=client,
                connection=ctx.connection,
                flavor=flavor,
                beyond_bmp=BEYOND_BMP.search(written) is not None,
                ascii_only=written.isascii(),
                from_bytes=raw,
            )
            settings = (first, first)
        text, seen, tokens_read = sql, opened, chunk
        recoded = None  # (the charset a statement read by its first words alone is text of)
        bytes_of = (settings[0].client if settings is not None else client) if raw else None
        if bytes_of is not None and not _read_alike(sql, chunk, bytes_of):
            if chunk[0].token_type in _DDL_VERB_TOKENS or other_statement(chunk) is None:
                text, seen, tokens_read = _decoded(sql, chunk, bytes_of, flavor, dialect)
            else:  # (a dump's rows: refused by their first words, not read anew)
                recoded = bytes_of
        with deep_stack():
            statement = _read_statement(
                text,
                seen,
                index,
                tokens_read,
                ctx,
                skip_unsupported,
                dialect,
                mode,
                settings if sets else None,
            )
        if recoded is not None:
            data = statement.text.encode("utf-8", "surrogateescape")
            statement = attrs.evolve(statement, text=read_as(data, recoded) or statement.text)
        if statement.use is not None:  # (the statements after it take its database)
            ctx = attrs.evolve(ctx, default=statement.use)
        if settings is not None and not sets and settings[0] is not settings[1]:
            statement = attrs.evolve(statement, settings=settings[0])  # (read after a SET)
        elif sets and statement.settings is not None and not _sets_one_statement(chunk):
            assert settings is not None
            # a SET: the statements after it are read and applied in the session it made
            now = statement.settings
            settings = (now, settings[1])
            ctx = _in_session(ctx, now)
            was, mode = mode, now.sql_mode
            dialect = DIALECT if mode is None else reading(mode)
            anew = _read_anew(sql, opened, chunk, was, mode, flavor)
            if anew is not None:
                opened, tokens, failed = anew
                chunks = _chunks(tokens, opened)
        yield statement


def _read_anew(
    sql: str,
    opened: str,
    chunk: list[Token],
    was: SqlMode | None,
    mode: SqlMode | None,
    flavor: str | None,
) -> tuple[str, list[Token], TokenError | None] | None:
    """After a SET whose tokens are ``chunk``, which changed the session's sql_mode from
    ``was`` to ``mode``: where its tokens changed, the text as read from then on and the
    tokens of the rest (as :func:`_tokens_from`'s), read anew (where its strings end, so where
    its comments, its client's delimiters and its statements do); None where they did not."""
    rest, delimiter = _rest(sql, opened, chunk[-1].end + 1)
    if _lexical(was) == _lexical(mode) or rest >= len(sql):
        return None
    dialect = DIALECT if mode is None else reading(mode)
    opened = opened[:rest] + _script_text(sql[rest:], flavor, dialect, delimiter)
    return (opened, *_tokens_from(opened, rest, dialect, sql))


def _text_of(data: bytes, charset: str) -> str:
    """A text's bytes read in ``charset`` as its statements; DDLError where they are not of
    it."""
    if python_codec(charset) is None:
        raise DDLError(f"statements written in {charset}: mvdd has no codec for that charset")
    try:
        return _statement_text(data, charset)
    except UnicodeDecodeError as err:
        raise DDLError(
            f"the text's byte 0x{data[err.start]:02X} at offset {err.start} is no {charset} "
            "text (its client's charset)"
        ) from None


def _statement_text(data: bytes, charset: str) -> str:
    """A statement's bytes read in ``charset`` (:func:`python_codec`'s statement codec);
    UnicodeDecodeError where they are not of it (UTF-8's 4-byte characters in utf8mb3's)."""
    codec = python_codec(charset, statement=True)
    assert codec is not None
    text = data.decode(codec)
    if holds(charset, text) is False:  # (UTF-8's codec reads what utf8mb3 has not)
        at = next(i for i, c in enumerate(text) if holds(charset, c) is False)
        start = len(text[:at].encode(codec))
        raise UnicodeDecodeError(codec, data, start, start + len(text[at].encode(codec)), charset)
    return text


#: a byte that is no UTF-8, as a text of bytes holds it (``surrogateescape``'s)
_ESCAPED = re.compile("[\udc80-\udcff]")


def _read_alike(sql: str, chunk: list[Token], charset: str) -> bool:
    """Whether the statement of ``chunk`` in ``sql`` (a text of bytes, read as UTF-8 with its
    other bytes escaped) reads the same in ``charset``, its client's: ASCII, UTF-8 of
    utf8mb4, or of utf8mb3 within the BMP."""
    start, end = chunk[0].start, chunk[-1].end + 1
    if sql[start:end].isascii():
        return True
    if charset not in ("utf8mb4", "utf8mb3") or _ESCAPED.search(sql, start, end):
        return False
    return charset == "utf8mb4" or BEYOND_BMP.search(sql, start, end) is None


def _decoded(
    sql: str, chunk: list[Token], charset: str, flavor: str | None, dialect: MvddMySQL
) -> tuple[str, str, list[Token]]:
    """The statement of ``chunk`` in ``sql`` (a text of bytes, read as UTF-8 with its other
    bytes escaped) read from its bytes in ``charset``, its client's: its text, that text with
    its executable comments opened, and its tokens, on the lines of the whole text.
    DDLParseError names a byte the charset does not read in a statement that may be DDL (any
    other is passed over unread, its bytes read as the server's ``?``)."""
    data = sql[chunk[0].start : chunk[-1].end + 1].encode("utf-8", "surrogateescape")
    try:
        text = _statement_text(data, charset)
    except UnicodeDecodeError as err:
        if chunk[0].token_type in _DDL_VERB_TOKENS:  # (as the server refuses such a value)
            raise DDLParseError(
                f"the statement's byte 0x{data[err.start]:02X} is no {charset} text (its "
                "client's charset)",
                line=chunk[0].line,
                snippet=data[max(0, err.start - 20) : err.start].decode(err.encoding, "replace"),
            ) from None
        text = read_as(data, charset) or ""  # (what the server reads of it: ?s)
    opened = _script_text(text, flavor, dialect)
    tokens, failed = dialect.tokens_before(opened)
    if failed is not None:
        raise _token_error(failed, text)
    for token in tokens:  # (its lines: the whole text's)
        token.line += chunk[0].line - 1
    return text, opened, tokens


def _default_charset_of(ctx: Context) -> str | None:
    """The charset of the default database the context knows (None: not known)."""
    database = ctx.default or ctx.database
    known = ctx.charsets(database) if ctx.charsets is not None and database else None
    return known[0] if known is not None else None


def _sets_no_variable(tree: exp.Command) -> bool:
    """Whether a SET that sqlglot read as a Command sets a password or a role (no session
    variable, no schema)."""
    words = str(tree.expression or "").split(None, 1)
    return tree.name.upper() == "SET" and bool(words) and words[0].upper() in _SET_NOT_TABLES


def _lexical(mode: SqlMode | None) -> tuple[bool, bool, bool]:
    """What of a session's sql_mode its text's tokens depend on: where a string ends
    (backslash escapes), what ``"`` quotes (ANSI_QUOTES), what ``REAL`` is (REAL_AS_FLOAT)."""
    if mode is None:
        return False, True, False
    return mode.ansi_quotes, mode.backslash_escapes, mode.real_as_float


def _rest(sql: str, opened: str, end: int) -> tuple[int, str]:
    """Where the text after a statement that ends at ``end`` starts (past the delimiter that
    ends it; the text's length: none), and that delimiter, from the text as written and as
    read (:func:`_script_text`, which made the delimiter a semicolon and spaces)."""
    at = end
    while at < len(opened) and opened[at].isspace():
        at += 1
    if at == len(opened) or opened[at] != ";":
        return len(sql), ";"
    stop = at + 1
    while stop < len(sql) and opened[stop] == " " and not sql[stop].isspace():
        stop += 1
    return stop, sql[at:stop]


def _sets_a_mode(tokens: list[Token]) -> bool:
    """Whether tokens hold a whole statement that SETs ``sql_mode`` (or SETs it by a name
    mvdd cannot see, ``@@session.sql_mode`` included: any statement naming the word)."""
    starts, setting, named = True, False, False
    for token in tokens:
        kind = token.token_type
        if kind == TokenType.SEMICOLON:
            if setting and named:
                return True
            starts, setting, named = True, False, False
            continue
        if starts:
            setting = kind == TokenType.SET
        named = named or (setting and token.text.lower() == "sql_mode")
        starts = False
    return False


def _sets_one_statement(chunk: list[Token]) -> bool:
    """Whether a statement's tokens, SET its first, are MariaDB's ``SET STATEMENT … FOR``."""
    return len(chunk) > 1 and chunk[1].text.upper() == "STATEMENT"


def _in_session(ctx: Context, settings: Settings) -> Context:
    """``ctx`` reading statements in the session ``settings`` say."""
    return attrs.evolve(
        ctx,
        charset=written_in(settings.client),
        session=settings.session,
        legacy_timestamps=settings.legacy_timestamps,
        connection=settings.connection,
    )


def _tokens_from(
    text: str, at: int, dialect: MvddMySQL, sql: str
) -> tuple[list[Token], TokenError | None]:
    """The tokens of ``text`` from ``at`` on, read by ``dialect`` and placed in the whole text
    (their offsets, lines and columns as of its start), and None; where it does not tokenize,
    the tokens of the whole statements before the trouble and the error, if a SET of sql_mode
    among them may make the rest read otherwise, else the error raised. ``sql``: the text as
    written, which an error quotes."""
    tokens, failed = dialect.tokens_before(text[at:] if at else text)
    if failed is not None:
        if not _sets_a_mode(tokens):
            for name in ("start", "end"):
                if at and isinstance(getattr(failed, name, None), int):
                    setattr(failed, name, getattr(failed, name) + at)
            raise _token_error(failed, sql)
        last = max(i for i, t in enumerate(tokens) if t.token_type == TokenType.SEMICOLON)
        tokens = tokens[: last + 1]
    if at:
        lines = text.count("\n", 0, at)
        columns = at - (text.rfind("\n", 0, at) + 1)
        for token in tokens:
            if token.line == 1:
                token.col += columns
            token.line += lines
            token.start += at
            token.end += at
    return tokens, failed


def statement_context(
    *,
    database: str | None = None,
    default: str | None = None,
    charsets: Callable[[str | None], tuple[str, str] | None] | None = None,
    replica: bool = False,
    flavor: str | None = None,
    charset: str | None = None,
    sql_mode: SqlMode | None = None,
    time_zone: dt.tzinfo | None = None,
    lower_names: bool = False,
    explicit_defaults_for_timestamp: bool = True,
    connection_charset: str | None = None,
) -> Context:
    """The context :func:`iter_statements` reads a text's statements in, from its arguments of
    the same names (``sql_mode`` as :class:`~mvdd.ddl.sqlmode.SqlMode` reads it): its session's
    part as the text's SETs make one (:func:`_in_session`)."""
    client = canonical_charset(charset) if charset is not None else "utf8mb4"
    session = Settings(
        sql_mode=sql_mode,
        time_zone=time_zone,
        explicit_defaults_for_timestamp=explicit_defaults_for_timestamp,
        client=client,
        connection=(
            canonical_charset(connection_charset) if connection_charset is not None else client
        ),
    )
    names = Context(
        database=database,
        default=default,
        charsets=charsets,
        replica=replica,
        flavor=flavor,
        lower_names=lower_names,
    )
    return _in_session(names, session)


#: a text that may hold a CAST to a string type (of a CAST, a CONVERT or a COLUMN_GET) or a
#: CHR: a substring test first, as most DDL has none, and :func:`cast_charsets` walks the tree
_CASTS = re.compile(r"CAST|CONVERT|COLUMN_GET|CHR", re.IGNORECASE)
#: the string types a CAST names -> the charset they take when it names none (None: the
#: session's connection charset; a national one is utf8mb3)
_CAST_CHARSETS: dict[exp.DType, str | None] = {
    exp.DType.CHAR: None,
    exp.DType.VARCHAR: None,
    exp.DType.NCHAR: "utf8mb3",
    exp.DType.NVARCHAR: "utf8mb3",
}


def cast_charsets(
    tree: exp.Expr | None, connection: str, database: str | None = None
) -> exp.Expr | None:
    """``tree`` with each CAST (or CONVERT) to a string type that names no charset naming the
    one the server gives it, as its SHOW CREATE TABLE shows it: the session's ``connection``
    charset, or utf8mb3 for a national one (a charset or a collation named, the parser has
    made the type the server's form: :meth:`MvddParser._parse_char_charset`). And MariaDB's
    ``CHR(n)`` as the server keeps it, ``CHAR(n USING charset)`` of the session's
    ``database`` charset (its default database's, where the statement ran: not its table's),
    when that is known.

    >>> from mvdd.ddl.dialect import DIALECT
    >>> tree = DIALECT.parse("SELECT CAST(a AS CHAR(3)), CAST(a AS NCHAR), CAST(a AS CHAR BINARY)")
    >>> [cast.sql(dialect=DIALECT) for cast in cast_charsets(tree[0], "latin1").expressions]
    ['CAST(a AS CHAR(3) CHARACTER SET latin1)', 'CAST(a AS CHAR CHARACTER SET utf8mb3)', \
'CAST(a AS CHAR CHARACTER SET latin1 BINARY)']
    >>> cast_charsets(DIALECT.parse("SELECT CHR(65)")[0], "utf8mb4", "koi8r").sql(dialect=DIALECT)
    'SELECT CHAR(65 USING koi8r)'
    """
    if tree is None:
        return None
    for node in list(tree.find_all(exp.Cast, exp.Anonymous)):
        if isinstance(node, exp.Anonymous):
            if (
                database is not None
                and str(node.this).upper() == "CHR"
                and len(node.expressions) == 1
            ):
                node.replace(exp.Chr(expressions=list(node.expressions), charset=exp.var(database)))
            continue
        to = node.args.get("to")
        if isinstance(to, exp.DataType) and to.this in _CAST_CHARSETS:
            charset = _CAST_CHARSETS[to.this] or connection
            node.set(
                "to",
                exp.DataType(
                    this=exp.DType.CHARACTER_SET,
                    expressions=to.expressions,
                    kind=exp.var(charset),
                    collate=to.args.get("collate"),
                ),
            )
    return tree


def literal_bytes(tree: exp.Expr | None, charset: str) -> exp.Expr | None:
    """``tree`` with each string literal under a charset introducer (``_latin1'é'``) made the
    hex literal of its bytes in ``charset``, the one its statement was written in
    (``_latin1 X'E9'``): a server takes the bytes its client sent, so ``_latin1'é'`` is 'é'
    from a ``latin1`` client and 'Ã©' from a UTF-8 one, and the statement's text, read from
    those bytes, no longer says which. (Every other literal is text, as the server reads it.)

    >>> from mvdd.ddl.dialect import DIALECT
    >>> tree = DIALECT.parse("CREATE TABLE t (a TEXT DEFAULT _latin1'é')")[0]
    >>> literal_bytes(tree, "latin1").sql(dialect=DIALECT)
    "CREATE TABLE t (a TEXT DEFAULT _latin1 X'E9')"
    """
    if tree is None:
        return None
    codec = python_codec(charset, statement=True)
    assert codec is not None
    for node in list(tree.find_all(exp.Introducer)):
        literal = node.expression
        if isinstance(literal, exp.Literal) and literal.is_string:
            try:
                data = literal.this.encode(codec)
            except UnicodeEncodeError:
                raise DDLParseError(
                    f"the literal {node.sql(dialect=DIALECT)} is no text of {charset}, the "
                    "charset its statement was written in"
                ) from None
            literal.replace(d.QuotedHex(this=data.hex().upper()))
    return tree


def as_server_reads(tree: exp.Expr | None, charset: str) -> exp.Expr | None:
    """``tree`` (a statement written in ``charset``, read with its statement codec) with its
    strings and names as the server reads them: the characters the statement codec keeps apart
    so that the parser reads the statement as the server does (``sjis``'s fullwidth backslash,
    never an escape) are what the server makes of them (a backslash:
    :func:`~mvdd.model.encoding.statement_text`).

    >>> from mvdd.ddl.dialect import DIALECT
    >>> tree = DIALECT.parse("CREATE TABLE t (a TEXT DEFAULT '＼')")[0]
    >>> as_server_reads(tree, "sjis").find(exp.Literal).this == chr(92)
    True
    """
    table = statement_text(charset)
    if tree is None or not table:
        return tree
    for node in tree.find_all(exp.Literal, exp.Identifier):
        if (node.is_string if isinstance(node, exp.Literal) else True) and isinstance(
            node.this, str
        ):
            node.set("this", node.this.translate(table))
    return tree


#: where a value stands in a DDL statement: a DEFAULT, a generation expression, a CHECK, an
#: ON UPDATE, an ALTER … SET DEFAULT (ENUM members, comments and options are not values)
_VALUE_PLACES = (
    exp.DefaultColumnConstraint,
    exp.ComputedColumnConstraint,
    exp.OnUpdateColumnConstraint,
    d.MySQLCheck,
    exp.AlterColumn,
)


def connection_text(tree: exp.Expr | None, charset: str) -> exp.Expr | None:
    """``tree`` with each string literal where a value stands (:data:`_VALUE_PLACES`) or an ENUM
    or SET member is named the text of ``charset``, its session's connection charset, as the
    server converts it there: a character the charset lacks is a ``?`` (a literal under an
    introducer is its own charset's; names and comments are the server's own).

    >>> from mvdd.ddl.dialect import DIALECT
    >>> tree = DIALECT.parse("CREATE TABLE t (a ENUM('ą', 'b') DEFAULT 'ą€' COMMENT 'ą')")[0]
    >>> connection_text(tree, "latin1").sql(dialect=DIALECT)
    "CREATE TABLE t (a ENUM('?', 'b') DEFAULT '?€' COMMENT 'ą')"
    """
    if tree is None:
        return tree
    for node in tree.find_all(exp.Literal):
        if (
            node.is_string
            and not isinstance(node.parent, exp.Introducer)
            and node.find_ancestor(*_VALUE_PLACES, exp.DataType) is not None
        ):
            kept = written_as(charset, node.this)
            if kept != node.this:
                node.set("this", kept)
    return tree


def empty_strings_null(tree: exp.Expr | None) -> exp.Expr | None:
    """``tree`` with each empty string literal where a value stands made NULL, as a session with
    EMPTY_STRING_IS_NULL reads it (``DEFAULT ''`` is ``DEFAULT NULL``, ``CONCAT('', a)`` is
    ``CONCAT(NULL, a)``); an ENUM's or a SET's member ``''`` and an empty COMMENT stay.

    >>> from mvdd.ddl.dialect import DIALECT
    >>> tree = DIALECT.parse("CREATE TABLE t (a ENUM('', 'x') DEFAULT '' COMMENT '')")[0]
    >>> empty_strings_null(tree).sql(dialect=DIALECT)
    "CREATE TABLE t (a ENUM('', 'x') DEFAULT NULL COMMENT '')"
    """
    if tree is None:
        return None
    for node in list(tree.find_all(exp.Literal)):
        if node.is_string and node.this == "" and node.find_ancestor(*_VALUE_PLACES):
            node.replace(exp.Null())
    return tree


def _read_statement(
    sql: str,
    opened: str,
    index: int,
    chunk: list[Token],
    ctx: Context,
    skip: bool,
    dialect: MvddMySQL = DIALECT,
    mode: SqlMode | None = None,
    settings: tuple[Settings, Settings] | None = None,
) -> Statement:
    """Statement ``index`` of ``sql``: its tokens ``chunk`` of ``opened`` (the text with its
    executable comments opened, of the same length) parsed by ``dialect`` (the one of its
    sql_mode, ``mode``) and turned into steps. ``settings``: the session's settings now and
    at the text's start, for a statement that starts with SET (:mod:`mvdd.ddl.setting`)."""
    text = sql[chunk[0].start : chunk[-1].end + 1]
    own: Settings | None = None  # (the settings of a SET, or a SET STATEMENT's own)
    unread = chunk[0].token_type == TokenType.BACKSLASH  # (a client command: client_delimited)
    if unread:  # (its text: its line's, from it on)
        end = sql.find("\n", chunk[0].start)
        text = sql[chunk[0].start : len(sql) if end < 0 else end].rstrip()
    try:
        if unread:
            raise UnsupportedDDLError(CLIENT_UNREAD[chunk[1].text[:1]])
        if mode is not None and settings is None:  # (a SET may put the mode back)
            refusal = mode.refusal()
            if refusal is not None:
                raise UnsupportedDDLError(f"a statement read under {refusal}")
        if chunk[0].token_type not in _DDL_VERB_TOKENS:
            # no DDL, however it goes on: not parsed (a dump's rows, its INSERTs, the most of
            # its text, would cost a parse each to be skipped)
            other = other_statement(chunk)
            if other is not None:
                raise UnsupportedDDLError(other)
        try:
            trees = dialect.parser().parse(chunk, opened)
        except ParseError as err:
            other = other_statement(_own_tokens(chunk))
            if other is not None:
                raise UnsupportedDDLError(other) from None
            if ctx.replica or PARTITIONING.isdisjoint(bare_words(chunk)):
                raise _parse_error(err, sql) from None
            # partitioning, which only a replica tracks, read as the Command sqlglot falls
            # back to elsewhere: unsupported, its table named, however malformed
            verb, *rest = opened[chunk[0].start : chunk[-1].end + 1].split(None, 1)
            trees = [exp.Command(this=verb.upper(), expression=" " + "".join(rest))]
        if settings is not None and len(trees) == 1:
            tree = trees[0]
            if isinstance(tree, exp.Set):
                # (skipping: an assignment mvdd does not follow passed over, the rest taken)
                passed: list[str] | None = [] if skip else None
                after = after_set(
                    tree, *settings, database=partial(_default_charset_of, ctx), passed=passed
                )
                if passed:
                    why = f"{'; '.join(passed)}; {PASSED_OVER_ONE}"
                    return Statement(index, text, (), skipped=why, settings=after, hazard=True)
                return Statement(index, text, (), settings=after)
            if isinstance(tree, exp.Command) and _sets_no_variable(tree):
                return Statement(index, text, ())  # (SET PASSWORD, SET ROLE: no schema's)
            if isinstance(tree, d.SetStatement):
                own = for_statement(tree.expressions, *settings)
                ctx = _in_session(ctx, own)
        if ctx.charset is not None:
            trees = [
                as_server_reads(literal_bytes(tree, ctx.charset), ctx.charset) for tree in trees
            ]
        if ctx.session.charset is not None:  # (its literals converted into its connection's)
            trees = [connection_text(tree, ctx.session.charset) for tree in trees]
        if mode is not None and "EMPTY_STRING_IS_NULL" in mode.words:
            trees = [empty_strings_null(tree) for tree in trees]
        if "(" in text and _CASTS.search(text):  # (a CAST, a CONVERT, a CHR has parentheses)
            found = ctx.charsets(ctx.default or ctx.database) if ctx.charsets else None
            default = found[0] if found is not None else None
            trees = [cast_charsets(tree, ctx.connection, default) for tree in trees]
        if "." in text:  # (a qualified column, a qualified table, or a number with a point)
            trees = [own_columns(tree, ctx) for tree in trees]
        steps: list[s.Step] = []
        database: s.DatabaseChange | None = None
        optional: set[str] = set()
        ordered: list[s.OrderedBy] = []
        sequences: list[str] = []
        versioned: list[str] = []
        anew: list[s.DefinedAnew] = []
        use: str | None = None
        for tree in trees:
            if tree is not None:
                try:
                    for item in statement_steps(tree, ctx):
                        if isinstance(item, s.Step):  # (the rest: conditions on the statement)
                            steps.append(item)
                        elif isinstance(item, s.DatabaseChange):
                            database = item
                        elif isinstance(item, s.IfTableExists):
                            optional.add(item.table)
                        elif isinstance(item, s.OrderedBy):
                            ordered.append(item)
                        elif isinstance(item, s.SequenceNamed):
                            sequences.append(item.table)
                        elif isinstance(item, s.VersioningMarked):
                            versioned.append(item.table)
                        elif isinstance(item, s.UseDatabase):
                            use = item.database
                        elif isinstance(item, s.DefinedAnew):
                            anew.append(item)
                except DDLParseError as err:
                    last = chunk[-1]
                    raise err.locate(line=last.line, col=last.col, snippet=text[-40:]) from None
        return _statement(
            index,
            text,
            tuple(steps),
            None,
            database,
            frozenset(optional) if optional else _NONE,
            tuple(ordered),
            tuple(sequences),
            tuple(versioned),
            use,
            own,
            False,
            tuple(anew) if anew else (),
        )
    except UnsupportedDDLError as err:
        if not skip:
            raise err.locate(statement=text, statement_index=index) from None
        if settings is not None and not _sets_one_statement(chunk):
            why = f"{err.message}; {PASSED_OVER}"
            return Statement(index, text, (), skipped=why, hazard=True)
        hazard = err.message in HIDDEN_DDL or err.message in _CLIENT_HAZARDS
        return Statement(index, text, (), skipped=err.message, hazard=hazard)
    except MvddError as err:
        raise err.locate(statement=text, statement_index=index) from None
    except SqlglotError as err:
        # sqlglot re-reads some text while parsing (type names, for one) and may fail there
        last = chunk[-1]
        raise DDLParseError(
            f"cannot parse: {str(err).splitlines()[0] if str(err) else type(err).__name__}",
            line=last.line,
            col=last.col,
            snippet=text[-40:],
        ).locate(statement=text, statement_index=index) from None
    except RecursionError:
        # expressions nested a few hundred levels deep exhaust sqlglot's recursive descent
        last = chunk[-1]
        raise DDLParseError(
            "cannot parse: the statement is nested too deeply",
            line=last.line,
            col=last.col,
            snippet=text[-40:],
        ).locate(statement=text, statement_index=index) from None
    except (ValueError, TypeError, KeyError, IndexError, AttributeError) as err:
        # sqlglot trees we did not foresee: name the statement rather than leak
        raise DDLError(f"cannot read statement: {type(err).__name__}: {err}").locate(
            statement=text, statement_index=index
        ) from None


def parse_statements(
    sql: str,
    *,
    skip_unsupported: bool = False,
    database: str | None = None,
    default: str | None = None,
    replica: bool = False,
    flavor: str | None = None,
    sql_mode: SqlMode | str | int | None = None,
) -> list[Statement]:
    """Split MySQL text into statements and each into steps.

    Args:
        sql: one or more statements separated by semicolons.
        skip_unsupported: return statements mvdd does not model with no steps instead of raising.
        database: the one database whose tables are tracked, named without qualifier; names
            qualified with another database are unsupported.
        default: the default database of a catalog that names tables ``database.table``:
            unqualified names take it (see :class:`mvdd.ddl.name.Context`).
        replica: the statements already ran on their server: a CREATE TABLE's table is built
            by that server's rules, not mvdd's stricter ones (:class:`mvdd.ddl.rules.Rules`).
        flavor: that server's (``"mariadb"`` or ``"mysql"``), when known: its own ways are
            followed too (:data:`mvdd.ddl.rules.MARIADB`).
        sql_mode: the session's sql_mode the text was written under, as ``@@sql_mode`` spells
            it or as a binlog logs it (:class:`~mvdd.ddl.sqlmode.SqlMode`).

    Raises:
        DDLParseError: text that does not parse.
        UnsupportedDDLError: a statement mvdd does not model (unless skipped).
        DDLError: a statement that parses but states something impossible.

    >>> [str(st) for st in parse_statements("ALTER TABLE t DROP a, ADD b INT")[0].steps]
    ['ALTER TABLE `t` DROP COLUMN `a`', 'ALTER TABLE `t` ADD COLUMN `b` INT']
    """
    return list(
        iter_statements(
            sql,
            skip_unsupported=skip_unsupported,
            database=database,
            default=default,
            replica=replica,
            flavor=flavor,
            sql_mode=sql_mode,
        )
    )


#: the sql_mode a server's own text (its SHOW CREATE TABLE) is read in: every date it shows,
#: it took (a day its month lacks, under ALLOW_INVALID_DATES), and every type it shows is the
#: one it made (strict: nothing is made another type)
SHOWN = attrs.evolve(SqlMode.of("ALLOW_INVALID_DATES,STRICT_ALL_TABLES"), shown=True)


#: the same, of a text read to be compared with the table it should be (:func:`live_table`)
SHOWN_ALIKE = attrs.evolve(SHOWN, alike=True)


def with_kept_defaults(text: str, kept: Callable[[list[str]], Sequence[str | None]]) -> str:
    """A server's ``CREATE TABLE`` text (its SHOW CREATE TABLE, which writes each character
    beyond the BMP of a DEFAULT as ``?``) with each string DEFAULT that holds a ``?`` as the
    table keeps it: ``kept(columns)`` gives those columns' DEFAULTs (None: not known). The text
    itself where none holds a ``?``, or each is what the table keeps; else the statement
    read and written again. ENUM and SET columns left out (their members are written the same
    way); a text mvdd cannot read stays (its reading says what it refuses).

    >>> with_kept_defaults("CREATE TABLE t (a VARCHAR(5) DEFAULT 'a?')", lambda c: ["a😀"])
    "CREATE TABLE t (a VARCHAR(5) DEFAULT 'a😀')"
    """
    if "?" not in text:
        return text
    try:
        (tree,) = DIALECT.parse(executable(text))
    except (SqlglotError, ValueError):
        return text
    literals = _question_defaults(tree)
    if not literals:
        return text
    changed = False
    for literal, value in zip(literals.values(), kept(list(literals)), strict=True):
        if value is not None and value != literal.this and shown_text(value) == literal.this:
            literal.replace(exp.Literal.string(value))
            changed = True
    return tree.sql(dialect=DIALECT) if changed and tree is not None else text


def named_create(text: str, name: str) -> str:
    """A server's ``CREATE TABLE`` text (its SHOW CREATE TABLE) as the same table of another
    ``name`` (unqualified): the text itself where it names the table so, else the statement
    read and written again with ``name`` in its place (a text mvdd cannot read stays: its
    reading says what it refuses).

    >>> named_create("CREATE TABLE `t` (a INT)", "u 2")
    'CREATE TABLE `u 2` (a INT)'
    """
    tree = _single(text, SHOWN, None)
    table = tree.this.this if tree is not None and isinstance(tree.this, exp.Schema) else None
    if not isinstance(table, exp.Table) or table.name == name:
        return text
    table.set("this", exp.to_identifier(name, quoted=True))
    return tree.sql(dialect=DIALECT) if tree is not None else text


def _question_defaults(tree: exp.Expr | None) -> dict[str, exp.Literal]:
    """The string literals of a CREATE TABLE's DEFAULTs holding a ``?`` (not an ENUM's or a
    SET's), by column."""
    out: dict[str, exp.Literal] = {}
    for col in tree.find_all(exp.ColumnDef) if tree is not None else ():
        kind = col.args.get("kind")
        if isinstance(kind, exp.DataType) and kind.this in (exp.DType.ENUM, exp.DType.SET):
            continue
        for constraint in col.constraints:
            value = constraint.kind.this if constraint.kind is not None else None
            if (
                isinstance(constraint.kind, exp.DefaultColumnConstraint)
                and isinstance(value, exp.Literal)
                and value.is_string
                and "?" in value.this
            ):
                out[col.name] = value
    return out


def parse_table(
    sql: str, *, replica: bool = False, flavor: str | None = None, shown: bool | None = None
) -> Table:
    """The table of one ``CREATE TABLE`` statement (id 0, version 1); ``replica``: built by
    the rules of the server that ran it (its ``SHOW CREATE TABLE``, say), whose ``flavor``
    may be known, as :func:`parse_statements`; ``shown`` (by default, ``replica``): its text
    is a server's own account of the table, read as such (:data:`SHOWN`), not a statement.

    >>> t = parse_table("CREATE TABLE t (a INT PRIMARY KEY, b VARCHAR(10) DEFAULT 'x')")
    >>> [c.name for c in t.columns], t.column("a").nullable, t.column("b").default
    (['a', 'b'], False, 'x')
    """
    own = replica if shown is None else shown
    return _only_table(
        sql, parse_statements(sql, replica=replica, flavor=flavor, sql_mode=SHOWN if own else None)
    )


def _only_table(sql: str, statements: Sequence[Statement]) -> Table:
    """The table of a text's one ``CREATE TABLE`` statement (DDLError: it holds another)."""
    if len(statements) != 1 or len(statements[0].steps) != 1:
        raise DDLError("expected exactly one CREATE TABLE statement", statement=sql)
    (only,) = statements[0].steps
    if not isinstance(only, s.CreateTable):
        raise DDLError("expected a CREATE TABLE statement", statement=sql)
    return only.definition


def live_table(text: str | bytes) -> Table:
    """A server's SHOW CREATE TABLE of a table mvdd made there, read to be compared with
    :func:`~mvdd.model.table.as_shown` of the table it should be (a byte that is no UTF-8 text
    kept as Python's ``surrogateescape`` reads it): by the server's rules, which built it,
    members it shows alike (two members of bytes their charset does not read, each shown
    ``?``) read as it shows them, where :func:`parse_table` refuses them.

    >>> t = live_table("CREATE TABLE `t` (`e` enum('a','?','?') CHARACTER SET ascii)")
    >>> t.column("e").type.members
    ('a', '?', '?')
    """
    shown = text.decode("utf-8", "surrogateescape") if isinstance(text, bytes) else text
    return _only_table(shown, parse_statements(shown, replica=True, sql_mode=SHOWN_ALIKE))


def for_server(text: str, flavor: str) -> str:
    """One statement mvdd rendered (MySQL's text) as a server of ``flavor`` reads it
    (:data:`mvdd.ddl.dialect.DIALECTS`): on MariaDB an invisible index is ``IGNORED``. The
    text is parsed and rendered again through sqlglot, as a transpiler does.

    >>> for_server("ALTER TABLE `t` ALTER INDEX `i` INVISIBLE", "mariadb")
    'ALTER TABLE `t` ALTER INDEX `i` IGNORED'
    """
    dialect = DIALECTS[flavor]
    if dialect is DIALECT:
        return text
    with deep_stack():
        (tree,) = DIALECT.parse(text)
        assert tree is not None, text
        return tree.sql(dialect=dialect, identify=True)


def replaced_drop(
    sql: str, sql_mode: SqlMode | str | int | None = None, flavor: str | None = None
) -> str | None:
    """What a ``CREATE OR REPLACE TABLE`` did when it failed after it began: it dropped the
    table it replaces (``DROP TABLE IF EXISTS`` of it, as text); None for any other statement,
    or text that does not read.

    MariaDB logs such a statement with the error it met (a replica expects the same error), as
    it logs any statement that changed something before it failed; the table is gone.

    >>> replaced_drop("CREATE OR REPLACE TABLE `p`.`t 7` (a INT, a INT)")
    'DROP TABLE IF EXISTS `p`.`t 7`'
    >>> replaced_drop("CREATE TABLE t (a INT, a INT)") is None
    True
    """
    tree = _single(sql, sql_mode, flavor)
    if not isinstance(tree, exp.Create):
        return None
    if not tree.args.get("replace") or str(tree.args.get("kind") or "").upper() != "TABLE":
        return None
    table = tree.this.this if isinstance(tree.this, exp.Schema) else tree.this
    if not isinstance(table, exp.Table):
        return None
    return exp.Drop(tables=[table.copy()], kind="TABLE", exists=True).sql(dialect=DIALECT)


def idempotent_drop(
    sql: str, sql_mode: SqlMode | str | int | None = None, flavor: str | None = None
) -> str | None:
    """A ``DROP TABLE`` without ``IF EXISTS`` as one with it (as text); None for any other
    statement, or text that does not read.

    A server logs a ``DROP TABLE`` that dropped some of the tables it names and not others
    (which it did not have) as it ran, every name in it (``DROP TABLE `u`,`gone` /* generated
    by server */``): a MariaDB replica runs it as this (its default ``slave_ddl_exec_mode``,
    IDEMPOTENT), and so does a binlog reader.

    >>> idempotent_drop("DROP TABLE `u`,`gone` /* generated by server */")
    'DROP TABLE IF EXISTS `u`, `gone`'
    >>> idempotent_drop("DROP TABLE IF EXISTS u") is None
    True
    """
    tree = _single(sql, sql_mode, flavor)
    if not isinstance(tree, exp.Drop) or str(tree.args.get("kind") or "").upper() != "TABLE":
        return None
    if tree.args.get("exists"):
        return None
    out = tree.copy()
    out.set("exists", True)
    return out.sql(dialect=DIALECT)


def _single(sql: str, sql_mode: SqlMode | str | int | None, flavor: str | None) -> exp.Expr | None:
    """The one statement of ``sql`` as sqlglot reads it under its session's ``sql_mode``
    (None: more than one, or text that does not read)."""
    mode = SqlMode.of(sql_mode, flavor) if sql_mode is not None else None
    dialect = DIALECT if mode is None else reading(mode)
    try:
        trees = dialect.parse(executable(sql, flavor, _backslash(dialect)))
    except SqlglotError:
        return None
    return trees[0] if len(trees) == 1 else None


__all__ = [
    "Statement",
    "connection_text",
    "for_server",
    "idempotent_drop",
    "iter_statements",
    "live_table",
    "parse_statements",
    "parse_table",
    "replaced_drop",
    "session_of",
    "split_statements",
    "statement_words",
    "written_in",
]
