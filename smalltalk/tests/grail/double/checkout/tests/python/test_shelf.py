from shelf.stack import Stack, helper


def test_push():
    assert helper(Stack().push(1)) == 1
