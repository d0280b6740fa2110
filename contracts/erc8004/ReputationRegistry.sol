// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

interface IIdentityRegistry8004 {
    function ownerOf(uint256 agentId) external view returns (address);
    function isAuthorizedOrOwner(address spender, uint256 agentId) external view returns (bool);
}

/// ERC-8004 Reputation Registry (docs/erc8004.md): any client but the agent's owner or operators
/// gives feedback as a signed fixed-point value (value / 10^valueDecimals, valueDecimals 0-18) with
/// two tags, the endpoint, an off-chain feedback file and its hash; the client may revoke it, anyone
/// may append a response. Indexes per (agent, client) start at 1.
contract ReputationRegistry {
    struct Feedback {
        int128 value;
        uint8 valueDecimals;
        bool isRevoked;
        string tag1;
        string tag2;
    }

    event NewFeedback(
        uint256 indexed agentId,
        address indexed clientAddress,
        uint64 feedbackIndex,
        int128 value,
        uint8 valueDecimals,
        string indexed indexedTag1,
        string tag1,
        string tag2,
        string endpoint,
        string feedbackURI,
        bytes32 feedbackHash
    );
    event FeedbackRevoked(uint256 indexed agentId, address indexed clientAddress, uint64 indexed feedbackIndex);
    event ResponseAppended(
        uint256 indexed agentId,
        address indexed clientAddress,
        uint64 feedbackIndex,
        address indexed responder,
        string responseURI,
        bytes32 responseHash
    );

    int128 private constant MAX_ABS_VALUE = 1e38;
    address private immutable _identityRegistry;
    mapping(uint256 => mapping(address => Feedback[])) private _feedback;
    mapping(uint256 => address[]) private _clients;
    mapping(uint256 => mapping(address => bool)) private _isClient;
    mapping(uint256 => mapping(address => mapping(uint64 => uint64))) private _responseCount;

    constructor(address identityRegistry_) {
        _identityRegistry = identityRegistry_;
    }

    function getIdentityRegistry() external view returns (address) {
        return _identityRegistry;
    }

    function giveFeedback(
        uint256 agentId,
        int128 value,
        uint8 valueDecimals,
        string memory tag1,
        string memory tag2,
        string memory endpoint,
        string memory feedbackURI,
        bytes32 feedbackHash
    ) external {
        require(valueDecimals <= 18, 'valueDecimals > 18');
        require(value <= MAX_ABS_VALUE && value >= -MAX_ABS_VALUE, 'value out of range');
        IIdentityRegistry8004(_identityRegistry).ownerOf(agentId); // reverts for an unknown agent
        require(!IIdentityRegistry8004(_identityRegistry).isAuthorizedOrOwner(msg.sender, agentId), 'self feedback');
        if (!_isClient[agentId][msg.sender]) {
            _isClient[agentId][msg.sender] = true;
            _clients[agentId].push(msg.sender);
        }
        _feedback[agentId][msg.sender].push(Feedback(value, valueDecimals, false, tag1, tag2));
        emit NewFeedback(
            agentId,
            msg.sender,
            uint64(_feedback[agentId][msg.sender].length),
            value,
            valueDecimals,
            tag1,
            tag1,
            tag2,
            endpoint,
            feedbackURI,
            feedbackHash
        );
    }

    function revokeFeedback(uint256 agentId, uint64 feedbackIndex) external {
        Feedback[] storage list = _feedback[agentId][msg.sender];
        require(feedbackIndex > 0 && feedbackIndex <= list.length, 'no such feedback');
        require(!list[feedbackIndex - 1].isRevoked, 'already revoked');
        list[feedbackIndex - 1].isRevoked = true;
        emit FeedbackRevoked(agentId, msg.sender, feedbackIndex);
    }

    function appendResponse(
        uint256 agentId,
        address clientAddress,
        uint64 feedbackIndex,
        string calldata responseURI,
        bytes32 responseHash
    ) external {
        require(feedbackIndex > 0 && feedbackIndex <= _feedback[agentId][clientAddress].length, 'no such feedback');
        _responseCount[agentId][clientAddress][feedbackIndex]++;
        emit ResponseAppended(agentId, clientAddress, feedbackIndex, msg.sender, responseURI, responseHash);
    }

    function readFeedback(uint256 agentId, address clientAddress, uint64 feedbackIndex)
        external
        view
        returns (int128 value, uint8 valueDecimals, string memory tag1, string memory tag2, bool isRevoked)
    {
        require(feedbackIndex > 0 && feedbackIndex <= _feedback[agentId][clientAddress].length, 'no such feedback');
        Feedback storage f = _feedback[agentId][clientAddress][feedbackIndex - 1];
        return (f.value, f.valueDecimals, f.tag1, f.tag2, f.isRevoked);
    }

    function getLastIndex(uint256 agentId, address clientAddress) external view returns (uint64) {
        return uint64(_feedback[agentId][clientAddress].length);
    }

    function getClients(uint256 agentId) external view returns (address[] memory) {
        return _clients[agentId];
    }

    function getResponseCount(uint256 agentId, address clientAddress, uint64 feedbackIndex) external view returns (uint64) {
        return _responseCount[agentId][clientAddress][feedbackIndex];
    }

    /// Count and mean of the non-revoked feedback of the named clients (required: a summary over
    /// every client is what Sybils inflate) matching the tags ("" matches any), as a fixed-point
    /// value with 18 decimals.
    function _sumOf(Feedback[] storage list, bytes32[2] memory tags) private view returns (int256 sum, uint64 n) {
        for (uint256 i = 0; i < list.length; i++) {
            Feedback storage f = list[i];
            if (f.isRevoked) continue;
            if (tags[0] != bytes32(0) && keccak256(bytes(f.tag1)) != tags[0]) continue;
            if (tags[1] != bytes32(0) && keccak256(bytes(f.tag2)) != tags[1]) continue;
            sum += int256(f.value) * int256(10 ** (18 - f.valueDecimals));
            n++;
        }
    }

    function getSummary(uint256 agentId, address[] memory clientAddresses, string memory tag1, string memory tag2)
        external
        view
        returns (uint64 count, int128 summaryValue, uint8 summaryValueDecimals)
    {
        require(clientAddresses.length > 0, 'clientAddresses required');
        bytes32[2] memory tags = [
            bytes(tag1).length == 0 ? bytes32(0) : keccak256(bytes(tag1)),
            bytes(tag2).length == 0 ? bytes32(0) : keccak256(bytes(tag2))
        ];
        int256 total;
        for (uint256 c = 0; c < clientAddresses.length; c++) {
            (int256 sum, uint64 n) = _sumOf(_feedback[agentId][clientAddresses[c]], tags);
            total += sum;
            count += n;
        }
        if (count > 0) summaryValue = int128(total / int256(uint256(count)));
        summaryValueDecimals = 18;
    }
}
