"""The live tables: the table and its match, the tables held by this process and their storage
(live), who follows each table and what each is sent (presence), the clocks that move play on
(pacing), the requests that change a table, finishing a match, and putting a broken table aside."""
