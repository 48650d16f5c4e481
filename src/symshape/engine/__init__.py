"""The engine: the program a frontend builds (`program`), the constraint graph with its facts and its one
decider (`constraints`), the context a rule works in (`context`), user facts (`userfacts`) and the
result as data (`result`). It knows no dialect and no rule.
"""
