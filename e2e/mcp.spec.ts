import { expect, test } from './fixtures/workbench.ts';

const EVERYTHING = 'http://127.0.0.1:4365/mcp';

test('an MCP server added by URL: its tools listed, a call validated before sending, a tool imported and run from the Tools page', async ({ page, tools }) => {
  await page.goto('/#/mcp');
  await page.getByTestId('mcp.url').fill(EVERYTHING);
  await page.getByTestId('mcp.add').click();
  const server = page.getByTestId('mcp.server');
  await expect(server.getByTestId('mcp.status')).toHaveText('connected', { timeout: 120_000 });
  const echo = server.getByTestId('mcp.tool.echo');
  await expect(echo).toContainText('Echoes back the input string');

  await echo.getByRole('button', { name: /echo/ }).click();
  await echo.getByTestId('mcp.args').fill('{"message": "from the browser"}');
  await echo.getByTestId('mcp.call').click();
  await expect(echo.getByTestId('mcp.result-summary')).toHaveText('Echo: from the browser');

  // A broken call never leaves the page: one coded error per problem, at its field.
  await echo.getByTestId('mcp.args').fill('{"msg": "oops"}');
  await echo.getByTestId('mcp.call').click();
  await expect(echo.getByTestId('mcp.not-sent')).toBeVisible();
  const errors = echo.getByTestId('mcp.result-errors');
  await expect(errors).toContainText('MISSING_REQUIRED_ARGUMENT');
  await expect(errors).toContainText('arguments.message');
  await expect(errors).toContainText('UNKNOWN_ARGUMENT');
  await expect(errors).toContainText('arguments.msg');

  // The check table for get-sum: every broken call rejected by the server.
  const sum = server.getByTestId('mcp.tool.get-sum');
  await sum.getByRole('button', { name: /get-sum/ }).click();
  await sum.getByTestId('mcp.check').click();
  await expect(sum.getByTestId('mcp.check-table')).toContainText('wrong-type.a');
  await expect(sum.getByTestId('mcp.check-table')).toContainText(/(\d+) of \1 as the schema says/);

  // Imported as a saved manifest, the tool joins the registry and runs from the Tools page.
  await echo.getByTestId('mcp.import').click();
  await expect(echo.getByTestId('mcp.imported')).toContainText('Saved echo 1.0.0');
  // Its draft reads no capture: the form asks for none, and the invocation carries only arguments.
  await tools.open();
  await page.getByTestId('invocation-form.tool').selectOption('echo');
  await expect(page.getByTestId('invocation-form.no-capture')).toHaveText('echo reads no capture: only its arguments are sent.');
  await expect(page.getByTestId('invocation-form.capture')).toHaveCount(0);
  await page.getByTestId('invocation-form.argument.message').fill('via the Tools page');
  await tools.run();
  await expect(tools.results().first().getByTestId('result.summary')).toHaveText('Echo: via the Tools page');
});

test('a server that cannot be reached: the message says what the server must allow', async ({ page }) => {
  await page.goto('/#/mcp');
  await page.getByTestId('mcp.url').fill('http://127.0.0.1:4379/mcp');
  await page.getByTestId('mcp.add').click();
  const server = page.getByTestId('mcp.server');
  await expect(server.getByTestId('mcp.status')).toHaveText('error', { timeout: 120_000 });
  await expect(server.getByTestId('mcp.error')).toContainText('Access-Control-Expose-Headers: Mcp-Session-Id');
});

test('a switched-on server\'s tool is offered to the planner as server__tool and runs in a scripted planner run', async ({ page, planner }) => {
  await page.goto('/#/mcp');
  await page.getByTestId('mcp.url').fill(EVERYTHING);
  await page.getByTestId('mcp.add').click();
  const server = page.getByTestId('mcp.server');
  await expect(server.getByTestId('mcp.status')).toHaveText('connected', { timeout: 120_000 });
  await server.getByTestId('mcp.enabled').check();

  await planner.open();
  await page.getByTestId('planner.target.script-pasted').check();
  const steps = [
    {
      tool_calls: [
        {
          id: 'call_echo',
          name: 'mcp_servers_everything__echo',
          // An MCP tool reads no capture: its envelope has only arguments (issue 24).
          arguments: { arguments: { message: 'through the planner' } },
        },
      ],
      usage: { input_tokens: 900, output_tokens: 40 },
    },
    {
      tool_calls: [{ id: 'call_final', name: 'agent__final_report', arguments: { report_format: 'markdown', report_content: 'The server echoed.', encoding: 'raw' } }],
      usage: { input_tokens: 1200, output_tokens: 30 },
    },
  ];
  await page.getByTestId('planner.target.script').fill(JSON.stringify(steps));
  await planner.ask('Echo something through the MCP server.');
  await planner.run();
  expect(await planner.finished()).toBe('success');
  await expect(planner.steps('execution').getByTestId('result.status')).toHaveText('ok');
  await expect(planner.steps('execution').getByTestId('result.summary')).toHaveText('Echo: through the planner');
});
