export async function indexSmartMoney() { return 0; }
