"""Django's test runner, recording every test's outcome (one line each, tab-separated: app, test,
outcome, the first line of the failure) in the file $CLEAVE_DJANGO_RESULTS, so two runs of the
suite can be compared test by test."""
import os
import re
import unittest

from django.test.runner import DiscoverRunner


def _app_and_test(test):
    name = test.id()
    # A failure outside a test (setUpClass, a module that does not import) names its class in parentheses.
    match = re.search(r"\(([^)]*)\)", str(test)) if not hasattr(test, "_testMethodName") else None
    if match:
        name = match.group(1) + " " + str(test).split(" ")[0]
    return name.split(".")[0], name


class RecordingResult(unittest.TextTestResult):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.outcomes = {}

    def _record(self, test, outcome, err=None):
        app, name = _app_and_test(test)
        detail = ""
        if err is not None:
            detail = " ".join(self._exc_info_to_string(err, test).strip().splitlines()[-1:])[:300]
        # A test with a failed subtest counts as failed once, whatever its other subtests did.
        if outcome == "ok" and self.outcomes.get(name, ("", "ok"))[1] != "ok":
            return
        self.outcomes[name] = (app, outcome, detail.replace("\t", " "))

    def addSuccess(self, test):
        super().addSuccess(test)
        self._record(test, "ok")

    def addFailure(self, test, err):
        super().addFailure(test, err)
        self._record(test, "fail", err)

    def addError(self, test, err):
        super().addError(test, err)
        self._record(test, "error", err)

    def addSkip(self, test, reason):
        super().addSkip(test, reason)
        self._record(test, "skip")

    def addExpectedFailure(self, test, err):
        super().addExpectedFailure(test, err)
        self._record(test, "ok")

    def addUnexpectedSuccess(self, test):
        super().addUnexpectedSuccess(test)
        self._record(test, "fail")

    def addSubTest(self, test, subtest, err):
        super().addSubTest(test, subtest, err)
        if err is not None:
            failed = issubclass(err[0], test.failureException)
            self._record(test, "fail" if failed else "error", err)

    def stopTestRun(self):
        super().stopTestRun()
        with open(os.environ["CLEAVE_DJANGO_RESULTS"], "w", encoding="utf-8") as out:
            for name in sorted(self.outcomes):
                app, outcome, detail = self.outcomes[name]
                out.write(f"{app}\t{name}\t{outcome}\t{detail}\n")


class RecordingRunner(DiscoverRunner):
    def get_resultclass(self):
        return RecordingResult
