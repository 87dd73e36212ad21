# ruff: noqa: RUF001, RUF003 - this module is about look-alike letters (ı, σ, ...)
"""Function words dropped from any-term queries (never at index time).

One small list per language (English, German, Turkish, French, Spanish). Words that are
also common content words in another of these languages are left out on purpose, because
the lists are merged: Spanish/French "son" and German "bin", "hat", "man", "war" are English
nouns, French "car" is an English noun, Spanish "era", "sea", "solo" are English words,
Turkish "ben", "kim" are names. English "may" (the month) and "us" (the country) are kept
out too. The lists are written as people type them; `STOPWORDS` holds them folded by the
same analyzer that folds queries, so "für" and "fur", "için" and "icin" are both stopwords.
"""

from __future__ import annotations

__all__ = ["RAW_STOPWORDS"]

ENGLISH = """
a about after all also am an and any are as at be been before being but by can could
did do does doing for from had has have he her here hers him his how i if in into is it
its just me more most my no nor not of off on once only or other our ours out own same
she should so some such than that the their theirs them then there these they this those
through to too under until up very was we were what when where which while who whom why
will with would you your yours
"""

GERMAN = """
aber alle als also am an auch auf aus bei bis bist da damit dann das dass dem den denn der
des dich die dir doch du durch ein eine einem einen einer eines er es für hatte ich ihm
ihn ihr im in ist ja kann mich mir mit nach nicht noch nur ob oder ohne sein sich sie
sind so um und uns unter vom von vor was welche wenn wer wie wir wird wo zu zum zur über
"""

TURKISH = """
acaba ama ancak bazı belki bir biri bu buna bunu bunun da daha de defa diye en gibi hem
hep hepsi her hiç için ile ise ki kez mı mi mu mü nasıl ne neden nerede niye o olan
olarak onu onun ona sanki siz şey şu tüm ve veya ya yani çok
"""

FRENCH = """
au aux avec ce ces cette dans de des du elle elles en est et étaient était été eux il
ils je la le les leur leurs lui ma mais me mes moi mon même ne nos notre nous on ou où
par pas pour qu que qui sa se ses sont sur ta te tes toi ton tu un une vos votre vous y
"""

SPANISH = """
al algo algunos ante como con cual cuando de del desde donde el ella ellas ellos en
entre es esta estaba este esto estos fue ha hay la las le les lo los mas me mi mis muy
más ni no nos o para pero por porque que qué se si sin sobre su sus también te tu un
una uno unos y ya yo él
"""

#: English contraction tails ("what's", "don't", "we'll" split into a word and these):
#: alone they match every possessive and contraction in the memory.
CONTRACTIONS = """
s t d ll m re ve
"""

RAW_STOPWORDS: frozenset[str] = frozenset(
    word
    for block in (ENGLISH, GERMAN, TURKISH, FRENCH, SPANISH, CONTRACTIONS)
    for word in block.split()
)
