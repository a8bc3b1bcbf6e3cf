import { describeFrame } from './message-log.writer';

describe('describeFrame', () => {
  it.each([
    ['[2,"m1","Heartbeat",{}]', 2, 'm1', 'Heartbeat'],
    [' [ 2 , "m\\"2" , "Meter\\u0056alues" , {"connectorId":1}]', 2, 'm"2', 'MeterValues'],
    ['[3,"m1",{"currentTime":"2026-01-01T00:00:00Z"}]', 3, 'm1', null],
    ['[4,"m1","GenericError","",{}]', 4, 'm1', null],
    ['[2.0,"m1","Heartbeat",{}]', 2, 'm1', 'Heartbeat'],
    ['[2,17,"Heartbeat",{}]', 2, null, null],
    ['[2,"m1",42,{}]', 2, 'm1', null],
    ['[2,"m1","Heartbeat",{"truncated":', 2, 'm1', 'Heartbeat'],
    ['[1e6,"m1"]', null, 'm1', null],
    ['[2.5,"m1"]', null, 'm1', null],
    ['["2","m1","Heartbeat",{}]', null, null, null],
    ['{"not": json', null, null, null],
    ['"a string"', null, null, null],
    ['[2,"bad \\x escape","Heartbeat",{}]', 2, null, 'Heartbeat'],
    ['[2,"raw\ttab","Heartbeat",{}]', 2, null, 'Heartbeat'],
    ['[2,"\u00e9t\u00e9 桩","Heartbeat",{}]', 2, 'été 桩', 'Heartbeat'],
    ['[2,"","Heartbeat",{}]', 2, '', 'Heartbeat'],
    [`[2,"${'i'.repeat(300)}","${'A'.repeat(300)}",{}]`, 2, 'i'.repeat(100), 'A'.repeat(100)],
  ])('%s', (frame, messageType, messageId, action) => {
    expect(describeFrame(frame)).toEqual({ messageType, messageId, action });
  });
});
