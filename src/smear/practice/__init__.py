"""Practice positions: decisions from self-play (or stored matches) solved with many more deals than
in play, kept only when one choice is clearly best, with themes, a difficulty and a starting rating
(``smear practice build``). :mod:`smear.practice.record` is the record's shape."""
