"""The course's own material: the exercises and their checker, and the notebooks' small data sets.

The library (every other module of evalkit) never imports from here; the notebooks and
the classroom tools do.

>>> from evalkit.course import datasets
>>> datasets.students()[0].size
100
"""
