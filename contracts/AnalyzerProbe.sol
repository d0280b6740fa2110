// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

// The contract analyzer's trade simulator. It is never deployed: the analyzer places its runtime code
// at a throwaway address with an eth_call state override, gives it ETH the same way, and calls
// probe(): buy through the pool's router, send part of what it bought to a fresh account, approve and
// sell the rest back, measuring every amount at the pool and at the accounts. Nothing is sent on chain.

interface IERC20Probe {
    function balanceOf(address) external view returns (uint256);
}

interface IWETHProbe {
    function balanceOf(address) external view returns (uint256);
}

interface IV2RouterProbe {
    function swapExactETHForTokensSupportingFeeOnTransferTokens(
        uint256 amountOutMin,
        address[] calldata path,
        address to,
        uint256 deadline
    ) external payable;

    function swapExactTokensForETHSupportingFeeOnTransferTokens(
        uint256 amountIn,
        uint256 amountOutMin,
        address[] calldata path,
        address to,
        uint256 deadline
    ) external;
}

interface IV3RouterProbe {
    struct ExactInputSingleParams {
        address tokenIn;
        address tokenOut;
        uint24 fee;
        address recipient;
        uint256 amountIn;
        uint256 amountOutMinimum;
        uint160 sqrtPriceLimitX96;
    }

    function exactInputSingle(ExactInputSingleParams calldata params) external payable returns (uint256 amountOut);
}

contract AnalyzerProbe {
    struct Result {
        bool buyOk;
        bytes buyError;
        /// Tokens that left the pool on the buy, and what arrived at the probe.
        uint256 poolTokensOut;
        uint256 bought;
        bool transferOk;
        uint256 sent;
        uint256 received;
        bool approveOk;
        bool sellOk;
        bytes sellError;
        uint256 sold;
        /// Tokens that arrived at the pool on the sell, and the ETH (or WETH) paid for them.
        uint256 poolTokensIn;
        uint256 ethOut;
        uint256 buyGas;
        uint256 sellGas;
        /// The privileged call (see `Admin`) succeeded, and the probe's balance right after it.
        bool adminOk;
        uint256 balanceAfterAdmin;
        /// Selling 100% and 50% of what was left after the transfer works; the largest sellable share
        /// in basis points found by bisection (10000 when all of it sells).
        bool sellAllOk;
        bool sellHalfOk;
        uint256 maxSellBps;
        /// Two sales of 5% each, one right after the other: the first works, the second does too.
        bool firstSmallSellOk;
        bool secondSmallSellOk;
    }

    /// An optional privileged call made as `caller` (whose code the analyzer overrides with this
    /// probe's, so `relay` runs there) before the buy (`stage` 0) or right after it (`stage` 1).
    struct Admin {
        address caller;
        bytes data;
        uint8 stage;
    }

    /// Runs `data` on `to` as this address (the analyzer overrides a privileged account's code with the probe's).
    function relay(address to, bytes calldata data) external returns (bool ok) {
        (ok,) = to.call(data);
    }

    receive() external payable {}

    struct Params {
        /// 2: `router` is a Uniswap V2 router; 3: SwapRouter02 with the pool's `fee`.
        uint8 version;
        address router;
        address pool;
        address token;
        address weth;
        uint24 fee;
        address friend;
        uint256 ethIn;
        uint256 transferBps;
    }

    function probe(Params calldata p) external returns (Result memory r) {
        Admin memory none;
        return _probe(p, none);
    }

    function probeAs(Params calldata p, Admin calldata a) external returns (Result memory r) {
        return _probe(p, a);
    }

    function _admin(address token, Admin memory a) private returns (bool ok) {
        (bool called, bytes memory ret) = a.caller.call(abi.encodeWithSelector(this.relay.selector, token, a.data));
        ok = called && ret.length >= 32 && abi.decode(ret, (bool));
    }

    function _probe(Params calldata p, Admin memory a) private returns (Result memory r) {
        IERC20Probe t = IERC20Probe(p.token);
        if (a.caller != address(0) && a.stage == 0) r.adminOk = _admin(p.token, a);

        uint256 poolBefore = t.balanceOf(p.pool);
        uint256 gasBefore = gasleft();
        (r.buyOk, r.buyError) = _buy(p.version, p.router, p.token, p.weth, p.fee, p.ethIn);
        r.buyGas = gasBefore - gasleft();
        if (!r.buyOk) return r;
        uint256 poolAfter = t.balanceOf(p.pool);
        r.poolTokensOut = poolBefore > poolAfter ? poolBefore - poolAfter : 0;
        r.bought = t.balanceOf(address(this));
        if (r.bought == 0) return r;
        if (a.caller != address(0) && a.stage == 1) {
            r.adminOk = _admin(p.token, a);
            r.balanceAfterAdmin = t.balanceOf(address(this));
        }

        // A transfer between two accounts that never traded: the probe and a fresh `friend`.
        r.sent = (r.bought * p.transferBps) / 10_000;
        if (r.sent > 0) {
            uint256 friendBefore = t.balanceOf(p.friend);
            r.transferOk = _call(p.token, abi.encodeWithSelector(0xa9059cbb, p.friend, r.sent));
            if (r.transferOk) r.received = t.balanceOf(p.friend) - friendBefore;
        }

        r.sold = t.balanceOf(address(this));
        r.approveOk = _call(p.token, abi.encodeWithSelector(0x095ea7b3, p.router, type(uint256).max));
        if (!r.approveOk || r.sold == 0) return r;
        _sellShares(p, r);
        // The measured sale: everything, or the largest share that sells (a per-transaction limit).
        if (!r.sellAllOk && r.maxSellBps > 0) r.sold = (r.sold * r.maxSellBps) / 10_000;
        _sellAndMeasure(p, r);
    }

    /// Which shares of the balance sell, each tried in a call that is rolled back (trySell reverts).
    function _sellShares(Params calldata p, Result memory r) private {
        uint256 balance = r.sold;
        (r.sellAllOk,) = _trySell(p, balance, 0);
        (r.sellHalfOk,) = _trySell(p, balance / 2, 0);
        (r.firstSmallSellOk, r.secondSmallSellOk) = _trySell(p, balance / 20, balance / 20);
        if (r.sellAllOk) {
            r.maxSellBps = 10_000;
            return;
        }
        // Bisection over basis points: lo sells, hi does not (8 steps: within 0.4%).
        uint256 lo = 0;
        uint256 hi = 10_000;
        if (r.sellHalfOk) lo = 5_000;
        else hi = 5_000;
        for (uint256 i = 0; i < 8 && hi - lo > 1; i++) {
            uint256 mid = (lo + hi) / 2;
            (bool ok,) = _trySell(p, (balance * mid) / 10_000, 0);
            if (ok) lo = mid;
            else hi = mid;
        }
        r.maxSellBps = lo;
    }

    function _trySell(Params calldata p, uint256 first, uint256 second) private returns (bool ok1, bool ok2) {
        if (first == 0) return (false, false);
        try this.trySell(p, first, second) {} catch (bytes memory data) {
            if (data.length == 64) (ok1, ok2) = abi.decode(data, (bool, bool));
        }
    }

    /// Sells `first`, then `second` (when not 0), and always reverts with (firstOk, secondOk): the sales never happened.
    function trySell(Params calldata p, uint256 first, uint256 second) external {
        require(msg.sender == address(this));
        (bool ok1,) = _sell(p.version, p.router, p.token, p.weth, p.fee, first);
        bool ok2 = false;
        if (ok1 && second > 0) (ok2,) = _sell(p.version, p.router, p.token, p.weth, p.fee, second);
        bytes memory out = abi.encode(ok1, ok2);
        assembly {
            revert(add(out, 32), mload(out))
        }
    }

    function _sellAndMeasure(Params calldata p, Result memory r) private {
        IERC20Probe t = IERC20Probe(p.token);
        uint256 poolBefore = t.balanceOf(p.pool);
        uint256 ethBefore = p.version == 2 ? address(this).balance : IWETHProbe(p.weth).balanceOf(address(this));
        uint256 gasBefore = gasleft();
        (r.sellOk, r.sellError) = _sell(p.version, p.router, p.token, p.weth, p.fee, r.sold);
        r.sellGas = gasBefore - gasleft();
        if (!r.sellOk) {
            // Routers report a refused transfer as their own failure: a direct transfer to the pool
            // shows the token's reason (the state is thrown away with the call anyway).
            (bool sent, bytes memory reason) = p.token.call(abi.encodeWithSelector(0xa9059cbb, p.pool, r.sold));
            if (!sent && reason.length > 0) r.sellError = reason;
            return;
        }
        uint256 poolAfter = t.balanceOf(p.pool);
        r.poolTokensIn = poolAfter > poolBefore ? poolAfter - poolBefore : 0;
        uint256 ethAfter = p.version == 2 ? address(this).balance : IWETHProbe(p.weth).balanceOf(address(this));
        r.ethOut = ethAfter - ethBefore;
    }

    function _buy(uint8 version, address router, address token, address weth, uint24 fee, uint256 ethIn)
        private
        returns (bool ok, bytes memory err)
    {
        if (version == 2) {
            address[] memory path = new address[](2);
            path[0] = weth;
            path[1] = token;
            try IV2RouterProbe(router).swapExactETHForTokensSupportingFeeOnTransferTokens{value: ethIn}(
                0, path, address(this), type(uint256).max
            ) {
                return (true, "");
            } catch (bytes memory reason) {
                return (false, reason);
            }
        }
        try IV3RouterProbe(router).exactInputSingle{value: ethIn}(
            IV3RouterProbe.ExactInputSingleParams(weth, token, fee, address(this), ethIn, 0, 0)
        ) returns (uint256) {
            return (true, "");
        } catch (bytes memory reason) {
            return (false, reason);
        }
    }

    function _sell(uint8 version, address router, address token, address weth, uint24 fee, uint256 amount)
        private
        returns (bool ok, bytes memory err)
    {
        if (version == 2) {
            address[] memory path = new address[](2);
            path[0] = token;
            path[1] = weth;
            try IV2RouterProbe(router).swapExactTokensForETHSupportingFeeOnTransferTokens(
                amount, 0, path, address(this), type(uint256).max
            ) {
                return (true, "");
            } catch (bytes memory reason) {
                return (false, reason);
            }
        }
        try IV3RouterProbe(router).exactInputSingle(
            IV3RouterProbe.ExactInputSingleParams(token, weth, fee, address(this), amount, 0, 0)
        ) returns (uint256) {
            return (true, "");
        } catch (bytes memory reason) {
            return (false, reason);
        }
    }

    /// An ERC-20 call that also accepts tokens returning nothing (USDT style).
    function _call(address token, bytes memory data) private returns (bool) {
        (bool ok, bytes memory ret) = token.call(data);
        return ok && (ret.length == 0 || (ret.length >= 32 && abi.decode(ret, (bool))));
    }
}
