"""A stack kept in a list, and a helper that copies one into another."""


def helper(item):
    return item


class Stack(list):
    """Last in, first out."""

    limit = 100

    def push(self, item):
        self.append(helper(item))
        return item

    def pop(self, index=-1):
        return list.pop(self, index)

    def peek(self, *, default=None):
        if not self:
            return default
        return self[-1]


def copy_all(source, target):
    for item in source:
        target.push(helper(item))
    return target
