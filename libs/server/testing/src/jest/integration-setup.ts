// Integration tests talk to real servers and spawn processes: give them room.
jest.setTimeout(90_000);
