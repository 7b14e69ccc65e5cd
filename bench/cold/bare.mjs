// A bare `node` start: the floor every cold-start process pays (reported, not a figure).
