"""Agent writes held for a person's approval (reference §8.7, issue #32): stored
outside the folder and the item store, so recall and the prompt never see them, until a
person approves (the write lands as the agent's) or rejects (it is gone)."""
