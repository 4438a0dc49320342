"""Reading round logs: finding the sources (:mod:`.discovery`), one reader module per input
format registered in one table (:mod:`.formats`: :mod:`.jsonl`, :mod:`.csv_pair`), checking
each line into a :class:`~reporting.records.Round` or a
:class:`~reporting.records.RejectedLine` with its reason (:mod:`.validation`), the batches the
readers give (:mod:`.sources`), and the second process that reads large files
(:mod:`.worker`).

Nothing here writes to the store; :mod:`reporting.store.load` writes what the readers give.
"""
