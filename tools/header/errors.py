"""GeneratorError: what the header generator raises when it cannot make a correct db.h."""


class GeneratorError(Exception):
    pass
