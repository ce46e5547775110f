"""MySQL/MariaDB character sets and collations (as of MariaDB 10.11 and MySQL 8.0).

Used to resolve a column's charset from its collation and back, to size TEXT(M), and to refuse
names a server would refuse. Data only: no logic beyond lookups."""

from __future__ import annotations

# charset -> (default collation, bytes per character at most)
CHARSETS: dict[str, tuple[str, int]] = {
    "armscii8": ("armscii8_general_ci", 1),
    "ascii": ("ascii_general_ci", 1),
    "big5": ("big5_chinese_ci", 2),
    "binary": ("binary", 1),
    "cp1250": ("cp1250_general_ci", 1),
    "cp1251": ("cp1251_general_ci", 1),
    "cp1256": ("cp1256_general_ci", 1),
    "cp1257": ("cp1257_general_ci", 1),
    "cp850": ("cp850_general_ci", 1),
    "cp852": ("cp852_general_ci", 1),
    "cp866": ("cp866_general_ci", 1),
    "cp932": ("cp932_japanese_ci", 2),
    "dec8": ("dec8_swedish_ci", 1),
    "eucjpms": ("eucjpms_japanese_ci", 3),
    "euckr": ("euckr_korean_ci", 2),
    "gb2312": ("gb2312_chinese_ci", 2),
    "gbk": ("gbk_chinese_ci", 2),
    "geostd8": ("geostd8_general_ci", 1),
    "greek": ("greek_general_ci", 1),
    "hebrew": ("hebrew_general_ci", 1),
    "hp8": ("hp8_english_ci", 1),
    "keybcs2": ("keybcs2_general_ci", 1),
    "koi8r": ("koi8r_general_ci", 1),
    "koi8u": ("koi8u_general_ci", 1),
    "latin1": ("latin1_swedish_ci", 1),
    "latin2": ("latin2_general_ci", 1),
    "latin5": ("latin5_turkish_ci", 1),
    "latin7": ("latin7_general_ci", 1),
    "macce": ("macce_general_ci", 1),
    "macroman": ("macroman_general_ci", 1),
    "sjis": ("sjis_japanese_ci", 2),
    "swe7": ("swe7_swedish_ci", 1),
    "tis620": ("tis620_thai_ci", 1),
    "ucs2": ("ucs2_general_ci", 2),
    "ujis": ("ujis_japanese_ci", 3),
    "utf16": ("utf16_general_ci", 4),
    "utf16le": ("utf16le_general_ci", 4),
    "utf32": ("utf32_general_ci", 4),
    "utf8mb3": ("utf8mb3_general_ci", 3),
    "utf8mb4": ("utf8mb4_general_ci", 4),
}

# every collation MariaDB 10.11 knows, by charset
COLLATIONS: dict[str, frozenset[str]] = {
    "armscii8": frozenset(
        """
        armscii8_bin armscii8_general_ci armscii8_general_nopad_ci armscii8_nopad_bin
        """.split()
    ),
    "ascii": frozenset("ascii_bin ascii_general_ci ascii_general_nopad_ci ascii_nopad_bin".split()),
    "big5": frozenset("big5_bin big5_chinese_ci big5_chinese_nopad_ci big5_nopad_bin".split()),
    "binary": frozenset("binary".split()),
    "cp1250": frozenset(
        """
        cp1250_bin cp1250_croatian_ci cp1250_czech_cs cp1250_general_ci cp1250_general_nopad_ci
        cp1250_nopad_bin cp1250_polish_ci
        """.split()
    ),
    "cp1251": frozenset(
        """
        cp1251_bin cp1251_bulgarian_ci cp1251_general_ci cp1251_general_cs
        cp1251_general_nopad_ci cp1251_nopad_bin cp1251_ukrainian_ci
        """.split()
    ),
    "cp1256": frozenset(
        """
        cp1256_bin cp1256_general_ci cp1256_general_nopad_ci cp1256_nopad_bin
        """.split()
    ),
    "cp1257": frozenset(
        """
        cp1257_bin cp1257_general_ci cp1257_general_nopad_ci cp1257_lithuanian_ci
        cp1257_nopad_bin
        """.split()
    ),
    "cp850": frozenset("cp850_bin cp850_general_ci cp850_general_nopad_ci cp850_nopad_bin".split()),
    "cp852": frozenset("cp852_bin cp852_general_ci cp852_general_nopad_ci cp852_nopad_bin".split()),
    "cp866": frozenset("cp866_bin cp866_general_ci cp866_general_nopad_ci cp866_nopad_bin".split()),
    "cp932": frozenset(
        """
        cp932_bin cp932_japanese_ci cp932_japanese_nopad_ci cp932_nopad_bin
        """.split()
    ),
    "dec8": frozenset("dec8_bin dec8_nopad_bin dec8_swedish_ci dec8_swedish_nopad_ci".split()),
    "eucjpms": frozenset(
        """
        eucjpms_bin eucjpms_japanese_ci eucjpms_japanese_nopad_ci eucjpms_nopad_bin
        """.split()
    ),
    "euckr": frozenset("euckr_bin euckr_korean_ci euckr_korean_nopad_ci euckr_nopad_bin".split()),
    "gb2312": frozenset(
        """
        gb2312_bin gb2312_chinese_ci gb2312_chinese_nopad_ci gb2312_nopad_bin
        """.split()
    ),
    "gbk": frozenset("gbk_bin gbk_chinese_ci gbk_chinese_nopad_ci gbk_nopad_bin".split()),
    "geostd8": frozenset(
        """
        geostd8_bin geostd8_general_ci geostd8_general_nopad_ci geostd8_nopad_bin
        """.split()
    ),
    "greek": frozenset("greek_bin greek_general_ci greek_general_nopad_ci greek_nopad_bin".split()),
    "hebrew": frozenset(
        """
        hebrew_bin hebrew_general_ci hebrew_general_nopad_ci hebrew_nopad_bin
        """.split()
    ),
    "hp8": frozenset("hp8_bin hp8_english_ci hp8_english_nopad_ci hp8_nopad_bin".split()),
    "keybcs2": frozenset(
        """
        keybcs2_bin keybcs2_general_ci keybcs2_general_nopad_ci keybcs2_nopad_bin
        """.split()
    ),
    "koi8r": frozenset("koi8r_bin koi8r_general_ci koi8r_general_nopad_ci koi8r_nopad_bin".split()),
    "koi8u": frozenset("koi8u_bin koi8u_general_ci koi8u_general_nopad_ci koi8u_nopad_bin".split()),
    "latin1": frozenset(
        """
        latin1_bin latin1_danish_ci latin1_general_ci latin1_general_cs latin1_german1_ci
        latin1_german2_ci latin1_nopad_bin latin1_spanish_ci latin1_swedish_ci
        latin1_swedish_nopad_ci
        """.split()
    ),
    "latin2": frozenset(
        """
        latin2_bin latin2_croatian_ci latin2_czech_cs latin2_general_ci latin2_general_nopad_ci
        latin2_hungarian_ci latin2_nopad_bin
        """.split()
    ),
    "latin5": frozenset(
        """
        latin5_bin latin5_nopad_bin latin5_turkish_ci latin5_turkish_nopad_ci
        """.split()
    ),
    "latin7": frozenset(
        """
        latin7_bin latin7_estonian_cs latin7_general_ci latin7_general_cs
        latin7_general_nopad_ci latin7_nopad_bin
        """.split()
    ),
    "macce": frozenset("macce_bin macce_general_ci macce_general_nopad_ci macce_nopad_bin".split()),
    "macroman": frozenset(
        """
        macroman_bin macroman_general_ci macroman_general_nopad_ci macroman_nopad_bin
        """.split()
    ),
    "sjis": frozenset("sjis_bin sjis_japanese_ci sjis_japanese_nopad_ci sjis_nopad_bin".split()),
    "swe7": frozenset("swe7_bin swe7_nopad_bin swe7_swedish_ci swe7_swedish_nopad_ci".split()),
    "tis620": frozenset("tis620_bin tis620_nopad_bin tis620_thai_ci tis620_thai_nopad_ci".split()),
    "ucs2": frozenset(
        """
        ucs2_bin ucs2_croatian_ci ucs2_croatian_mysql561_ci ucs2_czech_ci ucs2_danish_ci
        ucs2_esperanto_ci ucs2_estonian_ci ucs2_general_ci ucs2_general_mysql500_ci
        ucs2_general_nopad_ci ucs2_german2_ci ucs2_hungarian_ci ucs2_icelandic_ci
        ucs2_latvian_ci ucs2_lithuanian_ci ucs2_myanmar_ci ucs2_nopad_bin ucs2_persian_ci
        ucs2_polish_ci ucs2_romanian_ci ucs2_roman_ci ucs2_sinhala_ci ucs2_slovak_ci
        ucs2_slovenian_ci ucs2_spanish2_ci ucs2_spanish_ci ucs2_swedish_ci ucs2_thai_520_w2
        ucs2_turkish_ci ucs2_unicode_520_ci ucs2_unicode_520_nopad_ci ucs2_unicode_ci
        ucs2_unicode_nopad_ci ucs2_vietnamese_ci
        """.split()
    ),
    "ujis": frozenset("ujis_bin ujis_japanese_ci ujis_japanese_nopad_ci ujis_nopad_bin".split()),
    "utf16": frozenset(
        """
        utf16_bin utf16_croatian_ci utf16_croatian_mysql561_ci utf16_czech_ci utf16_danish_ci
        utf16_esperanto_ci utf16_estonian_ci utf16_general_ci utf16_general_nopad_ci
        utf16_german2_ci utf16_hungarian_ci utf16_icelandic_ci utf16_latvian_ci
        utf16_lithuanian_ci utf16_myanmar_ci utf16_nopad_bin utf16_persian_ci utf16_polish_ci
        utf16_romanian_ci utf16_roman_ci utf16_sinhala_ci utf16_slovak_ci utf16_slovenian_ci
        utf16_spanish2_ci utf16_spanish_ci utf16_swedish_ci utf16_thai_520_w2 utf16_turkish_ci
        utf16_unicode_520_ci utf16_unicode_520_nopad_ci utf16_unicode_ci utf16_unicode_nopad_ci
        utf16_vietnamese_ci
        """.split()
    ),
    "utf16le": frozenset(
        """
        utf16le_bin utf16le_general_ci utf16le_general_nopad_ci utf16le_nopad_bin
        """.split()
    ),
    "utf32": frozenset(
        """
        utf32_bin utf32_croatian_ci utf32_croatian_mysql561_ci utf32_czech_ci utf32_danish_ci
        utf32_esperanto_ci utf32_estonian_ci utf32_general_ci utf32_general_nopad_ci
        utf32_german2_ci utf32_hungarian_ci utf32_icelandic_ci utf32_latvian_ci
        utf32_lithuanian_ci utf32_myanmar_ci utf32_nopad_bin utf32_persian_ci utf32_polish_ci
        utf32_romanian_ci utf32_roman_ci utf32_sinhala_ci utf32_slovak_ci utf32_slovenian_ci
        utf32_spanish2_ci utf32_spanish_ci utf32_swedish_ci utf32_thai_520_w2 utf32_turkish_ci
        utf32_unicode_520_ci utf32_unicode_520_nopad_ci utf32_unicode_ci utf32_unicode_nopad_ci
        utf32_vietnamese_ci
        """.split()
    ),
    "utf8mb3": frozenset(
        """
        utf8mb3_bin utf8mb3_croatian_ci utf8mb3_croatian_mysql561_ci utf8mb3_czech_ci
        utf8mb3_danish_ci utf8mb3_esperanto_ci utf8mb3_estonian_ci utf8mb3_general_ci
        utf8mb3_general_mysql500_ci utf8mb3_general_nopad_ci utf8mb3_german2_ci
        utf8mb3_hungarian_ci utf8mb3_icelandic_ci utf8mb3_latvian_ci utf8mb3_lithuanian_ci
        utf8mb3_myanmar_ci utf8mb3_nopad_bin utf8mb3_persian_ci utf8mb3_polish_ci
        utf8mb3_romanian_ci utf8mb3_roman_ci utf8mb3_sinhala_ci utf8mb3_slovak_ci
        utf8mb3_slovenian_ci utf8mb3_spanish2_ci utf8mb3_spanish_ci utf8mb3_swedish_ci
        utf8mb3_thai_520_w2 utf8mb3_turkish_ci utf8mb3_unicode_520_ci
        utf8mb3_unicode_520_nopad_ci utf8mb3_unicode_ci utf8mb3_unicode_nopad_ci
        utf8mb3_vietnamese_ci
        """.split()
    ),
    "utf8mb4": frozenset(
        """
        utf8mb4_bin utf8mb4_croatian_ci utf8mb4_croatian_mysql561_ci utf8mb4_czech_ci
        utf8mb4_danish_ci utf8mb4_esperanto_ci utf8mb4_estonian_ci utf8mb4_general_ci
        utf8mb4_general_nopad_ci utf8mb4_german2_ci utf8mb4_hungarian_ci utf8mb4_icelandic_ci
        utf8mb4_latvian_ci utf8mb4_lithuanian_ci utf8mb4_myanmar_ci utf8mb4_nopad_bin
        utf8mb4_persian_ci utf8mb4_polish_ci utf8mb4_romanian_ci utf8mb4_roman_ci
        utf8mb4_sinhala_ci utf8mb4_slovak_ci utf8mb4_slovenian_ci utf8mb4_spanish2_ci
        utf8mb4_spanish_ci utf8mb4_swedish_ci utf8mb4_thai_520_w2 utf8mb4_turkish_ci
        utf8mb4_unicode_520_ci utf8mb4_unicode_520_nopad_ci utf8mb4_unicode_ci
        utf8mb4_unicode_nopad_ci utf8mb4_vietnamese_ci
        """.split()
    ),
}

# MariaDB 10.10+ UCA-14.0.0 collations, usable as `<charset>_<name>` with the Unicode charsets
UCA1400: frozenset[str] = frozenset(
    """
    uca1400_ai_ci uca1400_ai_cs uca1400_as_ci uca1400_as_cs uca1400_croatian_ai_ci
    uca1400_croatian_ai_cs uca1400_croatian_as_ci uca1400_croatian_as_cs
    uca1400_croatian_nopad_ai_ci uca1400_croatian_nopad_ai_cs uca1400_croatian_nopad_as_ci
    uca1400_croatian_nopad_as_cs uca1400_czech_ai_ci uca1400_czech_ai_cs uca1400_czech_as_ci
    uca1400_czech_as_cs uca1400_czech_nopad_ai_ci uca1400_czech_nopad_ai_cs
    uca1400_czech_nopad_as_ci uca1400_czech_nopad_as_cs uca1400_danish_ai_ci
    uca1400_danish_ai_cs uca1400_danish_as_ci uca1400_danish_as_cs uca1400_danish_nopad_ai_ci
    uca1400_danish_nopad_ai_cs uca1400_danish_nopad_as_ci uca1400_danish_nopad_as_cs
    uca1400_esperanto_ai_ci uca1400_esperanto_ai_cs uca1400_esperanto_as_ci
    uca1400_esperanto_as_cs uca1400_esperanto_nopad_ai_ci uca1400_esperanto_nopad_ai_cs
    uca1400_esperanto_nopad_as_ci uca1400_esperanto_nopad_as_cs uca1400_estonian_ai_ci
    uca1400_estonian_ai_cs uca1400_estonian_as_ci uca1400_estonian_as_cs
    uca1400_estonian_nopad_ai_ci uca1400_estonian_nopad_ai_cs uca1400_estonian_nopad_as_ci
    uca1400_estonian_nopad_as_cs uca1400_german2_ai_ci uca1400_german2_ai_cs
    uca1400_german2_as_ci uca1400_german2_as_cs uca1400_german2_nopad_ai_ci
    uca1400_german2_nopad_ai_cs uca1400_german2_nopad_as_ci uca1400_german2_nopad_as_cs
    uca1400_hungarian_ai_ci uca1400_hungarian_ai_cs uca1400_hungarian_as_ci
    uca1400_hungarian_as_cs uca1400_hungarian_nopad_ai_ci uca1400_hungarian_nopad_ai_cs
    uca1400_hungarian_nopad_as_ci uca1400_hungarian_nopad_as_cs uca1400_icelandic_ai_ci
    uca1400_icelandic_ai_cs uca1400_icelandic_as_ci uca1400_icelandic_as_cs
    uca1400_icelandic_nopad_ai_ci uca1400_icelandic_nopad_ai_cs uca1400_icelandic_nopad_as_ci
    uca1400_icelandic_nopad_as_cs uca1400_latvian_ai_ci uca1400_latvian_ai_cs
    uca1400_latvian_as_ci uca1400_latvian_as_cs uca1400_latvian_nopad_ai_ci
    uca1400_latvian_nopad_ai_cs uca1400_latvian_nopad_as_ci uca1400_latvian_nopad_as_cs
    uca1400_lithuanian_ai_ci uca1400_lithuanian_ai_cs uca1400_lithuanian_as_ci
    uca1400_lithuanian_as_cs uca1400_lithuanian_nopad_ai_ci uca1400_lithuanian_nopad_ai_cs
    uca1400_lithuanian_nopad_as_ci uca1400_lithuanian_nopad_as_cs uca1400_nopad_ai_ci
    uca1400_nopad_ai_cs uca1400_nopad_as_ci uca1400_nopad_as_cs uca1400_persian_ai_ci
    uca1400_persian_ai_cs uca1400_persian_as_ci uca1400_persian_as_cs
    uca1400_persian_nopad_ai_ci uca1400_persian_nopad_ai_cs uca1400_persian_nopad_as_ci
    uca1400_persian_nopad_as_cs uca1400_polish_ai_ci uca1400_polish_ai_cs uca1400_polish_as_ci
    uca1400_polish_as_cs uca1400_polish_nopad_ai_ci uca1400_polish_nopad_ai_cs
    uca1400_polish_nopad_as_ci uca1400_polish_nopad_as_cs uca1400_roman_ai_ci
    uca1400_roman_ai_cs uca1400_roman_as_ci uca1400_roman_as_cs uca1400_roman_nopad_ai_ci
    uca1400_roman_nopad_ai_cs uca1400_roman_nopad_as_ci uca1400_roman_nopad_as_cs
    uca1400_romanian_ai_ci uca1400_romanian_ai_cs uca1400_romanian_as_ci uca1400_romanian_as_cs
    uca1400_romanian_nopad_ai_ci uca1400_romanian_nopad_ai_cs uca1400_romanian_nopad_as_ci
    uca1400_romanian_nopad_as_cs uca1400_sinhala_ai_ci uca1400_sinhala_ai_cs
    uca1400_sinhala_as_ci uca1400_sinhala_as_cs uca1400_sinhala_nopad_ai_ci
    uca1400_sinhala_nopad_ai_cs uca1400_sinhala_nopad_as_ci uca1400_sinhala_nopad_as_cs
    uca1400_slovak_ai_ci uca1400_slovak_ai_cs uca1400_slovak_as_ci uca1400_slovak_as_cs
    uca1400_slovak_nopad_ai_ci uca1400_slovak_nopad_ai_cs uca1400_slovak_nopad_as_ci
    uca1400_slovak_nopad_as_cs uca1400_slovenian_ai_ci uca1400_slovenian_ai_cs
    uca1400_slovenian_as_ci uca1400_slovenian_as_cs uca1400_slovenian_nopad_ai_ci
    uca1400_slovenian_nopad_ai_cs uca1400_slovenian_nopad_as_ci uca1400_slovenian_nopad_as_cs
    uca1400_spanish2_ai_ci uca1400_spanish2_ai_cs uca1400_spanish2_as_ci uca1400_spanish2_as_cs
    uca1400_spanish2_nopad_ai_ci uca1400_spanish2_nopad_ai_cs uca1400_spanish2_nopad_as_ci
    uca1400_spanish2_nopad_as_cs uca1400_spanish_ai_ci uca1400_spanish_ai_cs
    uca1400_spanish_as_ci uca1400_spanish_as_cs uca1400_spanish_nopad_ai_ci
    uca1400_spanish_nopad_ai_cs uca1400_spanish_nopad_as_ci uca1400_spanish_nopad_as_cs
    uca1400_swedish_ai_ci uca1400_swedish_ai_cs uca1400_swedish_as_ci uca1400_swedish_as_cs
    uca1400_swedish_nopad_ai_ci uca1400_swedish_nopad_ai_cs uca1400_swedish_nopad_as_ci
    uca1400_swedish_nopad_as_cs uca1400_turkish_ai_ci uca1400_turkish_ai_cs
    uca1400_turkish_as_ci uca1400_turkish_as_cs uca1400_turkish_nopad_ai_ci
    uca1400_turkish_nopad_ai_cs uca1400_turkish_nopad_as_ci uca1400_turkish_nopad_as_cs
    uca1400_vietnamese_ai_ci uca1400_vietnamese_ai_cs uca1400_vietnamese_as_ci
    uca1400_vietnamese_as_cs uca1400_vietnamese_nopad_ai_ci uca1400_vietnamese_nopad_ai_cs
    uca1400_vietnamese_nopad_as_ci uca1400_vietnamese_nopad_as_cs
    """.split()
)
UNICODE_CHARSETS: frozenset[str] = frozenset({"ucs2", "utf16", "utf16le", "utf32", "utf8mb3", "utf8mb4"})

# MySQL 8.0 collations MariaDB 10.11 lacks (MariaDB 11.4 maps them): accepted, kept as written
MYSQL_UTF8MB4_0900: frozenset[str] = frozenset(
    """
    utf8mb4_0900_ai_ci utf8mb4_0900_as_ci utf8mb4_0900_as_cs utf8mb4_0900_bin utf8mb4_bg_0900_ai_ci
    utf8mb4_bg_0900_as_cs utf8mb4_bs_0900_ai_ci utf8mb4_bs_0900_as_cs utf8mb4_cs_0900_ai_ci
    utf8mb4_cs_0900_as_cs utf8mb4_da_0900_ai_ci utf8mb4_da_0900_as_cs utf8mb4_de_pb_0900_ai_ci
    utf8mb4_de_pb_0900_as_cs utf8mb4_eo_0900_ai_ci utf8mb4_eo_0900_as_cs utf8mb4_es_0900_ai_ci
    utf8mb4_es_0900_as_cs utf8mb4_es_trad_0900_ai_ci utf8mb4_es_trad_0900_as_cs utf8mb4_et_0900_ai_ci
    utf8mb4_et_0900_as_cs utf8mb4_gl_0900_ai_ci utf8mb4_gl_0900_as_cs utf8mb4_hr_0900_ai_ci
    utf8mb4_hr_0900_as_cs utf8mb4_hu_0900_ai_ci utf8mb4_hu_0900_as_cs utf8mb4_is_0900_ai_ci
    utf8mb4_is_0900_as_cs utf8mb4_ja_0900_as_cs utf8mb4_ja_0900_as_cs_ks utf8mb4_la_0900_ai_ci
    utf8mb4_la_0900_as_cs utf8mb4_lt_0900_ai_ci utf8mb4_lt_0900_as_cs utf8mb4_lv_0900_ai_ci
    utf8mb4_lv_0900_as_cs utf8mb4_mn_cyrl_0900_ai_ci utf8mb4_mn_cyrl_0900_as_cs utf8mb4_nb_0900_ai_ci
    utf8mb4_nb_0900_as_cs utf8mb4_nn_0900_ai_ci utf8mb4_nn_0900_as_cs utf8mb4_pl_0900_ai_ci
    utf8mb4_pl_0900_as_cs utf8mb4_ro_0900_ai_ci utf8mb4_ro_0900_as_cs utf8mb4_ru_0900_ai_ci
    utf8mb4_ru_0900_as_cs utf8mb4_sk_0900_ai_ci utf8mb4_sk_0900_as_cs utf8mb4_sl_0900_ai_ci
    utf8mb4_sl_0900_as_cs utf8mb4_sr_latn_0900_ai_ci utf8mb4_sr_latn_0900_as_cs utf8mb4_sv_0900_ai_ci
    utf8mb4_sv_0900_as_cs utf8mb4_tr_0900_ai_ci utf8mb4_tr_0900_as_cs utf8mb4_vi_0900_ai_ci
    utf8mb4_vi_0900_as_cs utf8mb4_zh_0900_as_cs
    """.split()
)

# names the servers accept for another charset
CHARSET_ALIASES: dict[str, str] = {"utf8": "utf8mb3"}
