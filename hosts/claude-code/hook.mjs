// Claude Code's Elicitation hook (settings: hooks.Elicitation), standing in
// for the person who fills the form: it records what Claude Code passed it
// (the server's message and requested_schema, as Claude Code would render
// them) to $FLIGHTS_HOOK_RECORD, and accepts a trip form with the answer in
// $FLIGHTS_HOOK_ANSWER (JSON). Any other form it cancels, as a person who
// closes it would.
import { appendFileSync } from 'node:fs';

let input = '';
process.stdin.on('data', (c) => (input += c));
process.stdin.on('end', () => {
  const event = JSON.parse(input);
  appendFileSync(process.env.FLIGHTS_HOOK_RECORD, JSON.stringify(event) + '\n');
  const trip = event.requested_schema?.properties?.date !== undefined;
  const answer = trip
    ? { action: 'accept', content: JSON.parse(process.env.FLIGHTS_HOOK_ANSWER) }
    : { action: 'cancel' };
  process.stdout.write(JSON.stringify({ hookSpecificOutput: { hookEventName: 'Elicitation', ...answer } }));
});
