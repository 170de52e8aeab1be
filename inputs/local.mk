# parameter files users start from
