"""A small package the Grail test double serves."""

from shelf.stack import Stack, copy_all
